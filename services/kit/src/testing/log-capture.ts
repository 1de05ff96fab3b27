// A real pino logger (the kit's createLogger: serializers and redaction included) whose JSON lines stay in memory, so a
// test can read what a service would have written.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logging/index.js';

export interface CapturedLogs {
  logger: Logger;
  /** Every line so far, parsed. */
  lines: () => Array<Record<string, unknown>>;
  /** Every line so far, as written. */
  text: () => string;
}

export function capturingLogger(level = 'trace', service = 'kit-test'): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ service, level, destination });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () => text().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
