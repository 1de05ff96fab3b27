// The webhook delivery workflow alone, as Temporal's samples test workflows: the real workflow code on the time-skipping
// test server, with its activities mocked, so the schedule logic is checked without a database or a receiver. (The
// kit's tests run it end to end with the real activities, database and HTTPS receiver.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WebhookAttemptInput, WebhookAttemptResult, WebhookDeliveryActivities } from '../src/activities.js';
import { WORKFLOW_TYPES, type WebhookSchedule } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { WebhookDeliveryWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';

const MINUTE = 60_000;
const schedule: WebhookSchedule = { name: 'test', delaysMs: [0, MINUTE, 5 * MINUTE], attemptTimeoutMs: 5_000 };
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** Mocked activities: each attempt answers the next of `outcomes`; calls are recorded with the server time they ran at. */
function mockActivities(outcomes: boolean[]) {
  const attempts: Array<WebhookAttemptInput & { atMs: number }> = [];
  const failedMarks: Array<{ deliveryId: string; attempts: number }> = [];
  const activities: WebhookDeliveryActivities = {
    async deliverWebhookAttempt(input): Promise<WebhookAttemptResult> {
      attempts.push({ ...input, atMs: await env.currentTimeMs() });
      const delivered = outcomes[input.attemptNumber - 1] ?? false;
      return { attemptNumber: input.attemptNumber, delivered, statusCode: delivered ? 200 : 500, error: delivered ? null : 'HTTP 500', durationMs: 1, replayed: false };
    },
    async markWebhookDeliveryFailed(input) {
      failedMarks.push(input);
    },
  };
  return { activities, attempts, failedMarks };
}

async function run(outcomes: boolean[]) {
  const mocked = mockActivities(outcomes);
  const worker = await createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities: mocked.activities });
  const result = await worker.runUntil(
    env.client.workflow.execute(WORKFLOW_TYPES.webhookDelivery, {
      taskQueue: 'bnpl',
      workflowId: `webhook-unit-${crypto.randomUUID()}`,
      args: [{ service: 'bnpl', deliveryId: 'delivery-1', schedule }],
    }) as Promise<WebhookDeliveryWorkflowResult>,
  );
  return { result, ...mocked };
}

describe('webhookDeliveryWorkflow with mocked activities', () => {
  it('stops at the first delivered attempt and never marks the delivery failed', async () => {
    const { result, attempts, failedMarks } = await run([false, true]);
    expect(result).toEqual({ outcome: 'delivered', attempts: 2 });
    expect(attempts.map((a) => [a.attemptNumber, a.timeoutMs, a.nextAttemptInMs])).toEqual([
      [1, 5_000, MINUTE],
      [2, 5_000, 5 * MINUTE],
    ]);
    expect(attempts[1]!.atMs - attempts[0]!.atMs).toBeGreaterThanOrEqual(MINUTE);
    expect(failedMarks).toEqual([]);
  });

  it('makes every attempt of the schedule, waiting its delays, then marks the delivery failed once', async () => {
    const { result, attempts, failedMarks } = await run([false, false, false]);
    expect(result).toEqual({ outcome: 'failed', attempts: 3 });
    expect(attempts.map((a) => a.nextAttemptInMs)).toEqual([MINUTE, 5 * MINUTE, null]);
    expect(attempts[2]!.atMs - attempts[1]!.atMs).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(failedMarks).toEqual([{ deliveryId: 'delivery-1', attempts: 3 }]);
  });
});
