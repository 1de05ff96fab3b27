// The worker's Temporal logs go through the service's pino logger (one JSON log for operators), with levels mapped,
// Temporal's metadata kept, its `error` serialised as pino's `err`, and redaction applied like any other line.
import { describe, expect, it } from '@jest/globals';
import { temporalLoggerFor } from '../../src/runtime/index.js';
import { capturingLogger } from '../fixtures/capture-logs.js';

describe('temporalLoggerFor', () => {
  it('maps each Temporal level to pino and keeps the metadata', () => {
    const { logger, lines } = capturingLogger('trace');
    const temporal = temporalLoggerFor(logger);
    temporal.trace('t', { a: 1 });
    temporal.debug('d');
    temporal.info('Worker state changed', { sdkComponent: 'worker', taskQueue: 'crypto', state: 'RUNNING' });
    temporal.warn('w');
    temporal.error('e');
    temporal.log('WARN', 'via log');
    expect(lines().map((line) => [line.level, line.msg])).toEqual([
      [10, 't'],
      [20, 'd'],
      [30, 'Worker state changed'],
      [40, 'w'],
      [50, 'e'],
      [40, 'via log'],
    ]);
    expect(lines()[2]).toMatchObject({ component: 'temporal', sdkComponent: 'worker', taskQueue: 'crypto', state: 'RUNNING', service: 'kit-test' });
  });

  it("writes Temporal's error metadata as a serialised err, and redacts secrets in metadata", () => {
    const { logger, lines, text } = capturingLogger();
    temporalLoggerFor(logger).warn('Activity failed', { activityType: 'deliverWebhookAttempt', error: new Error('connect ECONNREFUSED'), signingSecret: 'whsec_nope' });
    expect(lines()[0]).toMatchObject({ msg: 'Activity failed', activityType: 'deliverWebhookAttempt', err: { type: 'Error', message: 'connect ECONNREFUSED' } });
    expect(lines()[0]).not.toHaveProperty('error');
    expect(text()).not.toContain('whsec_nope');
  });

  it('honours the logger level (nothing below it is written)', () => {
    const { logger, lines } = capturingLogger('warn');
    const temporal = temporalLoggerFor(logger);
    temporal.info('quiet');
    temporal.error('loud');
    expect(lines().map((line) => line.msg)).toEqual(['loud']);
  });
});
