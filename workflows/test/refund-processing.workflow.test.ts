// The refund processing workflow alone: the real workflow code on the time-skipping test server with its activities
// mocked (bnpl's tests run it end to end with the real activities, database and worker).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RefundProcessingActivities, RefundStepInput, RefundStepResult } from '../src/activities.js';
import { TASK_QUEUES, WORKFLOW_TYPES, refundWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { RefundProcessingWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';
import * as workflows from '../src/workflows/index.js';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** Mocked activities: `begin` and `complete` answer in turn; a thrown answer fails that attempt (Temporal retries). */
function mockActivities(begin: Array<() => RefundStepResult>, complete: Array<() => RefundStepResult>) {
  const calls: Array<{ step: string; input: RefundStepInput }> = [];
  const answer = (answers: Array<() => RefundStepResult>, step: string) => async (input: RefundStepInput) => {
    calls.push({ step, input });
    const made = calls.filter((call) => call.step === step).length;
    return answers[Math.min(made, answers.length) - 1]!();
  };
  const activities: RefundProcessingActivities = { beginRefundProcessing: answer(begin, 'begin'), completeRefund: answer(complete, 'complete') };
  return { activities, calls };
}

async function run(activities: RefundProcessingActivities): Promise<{ result: RefundProcessingWorkflowResult; refundId: string }> {
  const worker = await createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const refundId = crypto.randomUUID();
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.refundProcessing, { taskQueue: TASK_QUEUES.bnpl, workflowId: refundWorkflowId(refundId), args: [{ refundId }] });
  const result = await worker.runUntil(handle.result() as Promise<RefundProcessingWorkflowResult>);
  return { result, refundId };
}

const processing = (): RefundStepResult => ({ status: 'processing', failureReason: null });

describe('refundProcessingWorkflow with mocked activities', () => {
  it('is the registered type, with the id refund-<id>', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.refundProcessing]).toBe('function');
    expect(refundWorkflowId('r1')).toBe('refund-r1');
    expect(() => refundWorkflowId('')).toThrow(/must not be empty/);
  });

  it('begins, then completes: the result is what the completion stored', async () => {
    const mocked = mockActivities([processing], [() => ({ status: 'processed', failureReason: null })]);
    const { result, refundId } = await run(mocked.activities);
    expect(result).toEqual({ status: 'processed', failureReason: null });
    expect(mocked.calls).toEqual([
      { step: 'begin', input: { refundId } },
      { step: 'complete', input: { refundId } },
    ]);
  });

  it('a failed refund ends with its reason', async () => {
    const mocked = mockActivities([processing], [() => ({ status: 'failed', failureReason: 'refused' })]);
    expect((await run(mocked.activities)).result).toEqual({ status: 'failed', failureReason: 'refused' });
  });

  it('a refund already past requested (a replayed start) is not completed again', async () => {
    const mocked = mockActivities([() => ({ status: 'processed', failureReason: null })], [processing]);
    expect((await run(mocked.activities)).result).toEqual({ status: 'processed', failureReason: null });
    expect(mocked.calls.map((call) => call.step)).toEqual(['begin']);
  });

  it('an infrastructure error in a step is retried until it passes', async () => {
    let failures = 0;
    const flaky = (): RefundStepResult => {
      failures += 1;
      if (failures <= 2) throw new Error('database unreachable');
      return { status: 'processed', failureReason: null };
    };
    const mocked = mockActivities([processing], [flaky]);
    expect((await run(mocked.activities)).result).toEqual({ status: 'processed', failureReason: null });
    expect(mocked.calls.filter((call) => call.step === 'complete')).toHaveLength(3);
  });
});
