// The loan lifecycle workflow alone: the real workflow code on the time-skipping test server with its activity mocked,
// so the durable timers to each step (weeks long), the paymentReceived signal and the test clock (clockAdvanced) are
// checked without a database. (bnpl's tests run it end to end with the real activity, database and worker.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tsToMs } from '@temporalio/common/lib/time.js';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AdvanceLoanInput, AdvanceLoanResult, LoanLifecycleActivities } from '../src/activities.js';
import { LOAN_SIGNALS, TASK_QUEUES, WORKFLOW_TYPES, loanWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { LoanLifecycleWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';
import * as workflows from '../src/workflows/index.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LOAN_ID = '5b1d0c8e-8a8f-4c1e-9f3a-2f0a1e6c7d11';
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

type Answer = (input: AdvanceLoanInput) => AdvanceLoanResult;
interface Call {
  input: AdvanceLoanInput;
  /** The test server's clock when the activity ran. */
  serverMs: number;
}

/** A mocked activity answering `answers` in turn; calls are recorded with the server time. */
function mockActivity(answers: Answer[]) {
  const calls: Call[] = [];
  const activities: LoanLifecycleActivities = {
    async advanceLoan(input) {
      calls.push({ input, serverMs: await env.currentTimeMs() });
      return answers[Math.min(calls.length, answers.length) - 1]!(input);
    },
  };
  return { activities, calls };
}

/** Answers "next step `days` after the clock the workflow passed". */
const nextIn = (days: number): Answer => (input) => ({ status: 'active', nextAt: new Date(Date.parse(input.at) + days * DAY).toISOString(), steps: ['installment 1 paid'], testClockOffsetMs: null });
const closed: Answer = () => ({ status: 'paid_off', nextAt: null, steps: ['installment 4 paid'], testClockOffsetMs: null });

let counter = 0;
async function start(activities: LoanLifecycleActivities, testClockOffsetMs: number | null) {
  const worker = await createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  counter += 1;
  const loanNumber = `LN-TEST${counter}-${Date.now().toString(36).slice(-5).toUpperCase()}`;
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.loanLifecycle, {
    taskQueue: TASK_QUEUES.bnpl,
    workflowId: loanWorkflowId(loanNumber),
    args: [{ loanId: LOAN_ID, loanNumber, testClockOffsetMs }],
  });
  return { worker, handle, loanNumber };
}

async function timerDurations(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

/** Polls (without awaiting the result, so no time is skipped) until the activity was called `n` times. */
async function callsReach(calls: Call[], n: number): Promise<void> {
  for (let i = 0; i < 600 && calls.length < n; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(calls.length).toBeGreaterThanOrEqual(n);
}

const clockOf = (call: Call) => Date.parse(call.input.at);

describe('loanLifecycleWorkflow with a mocked activity', () => {
  it('is the registered type on the bnpl queue, id `loan-<loan_number>`, with its two signals', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.loanLifecycle]).toBe('function');
    expect(WORKFLOW_TYPES.loanLifecycle).toBe('loanLifecycleWorkflow');
    expect(loanWorkflowId('LN-7K2MQ-9QXD4')).toBe('loan-LN-7K2MQ-9QXD4');
    expect(() => loanWorkflowId('')).toThrow();
    expect(LOAN_SIGNALS).toEqual({ paymentReceived: 'paymentReceived', clockAdvanced: 'clockAdvanced' });
  });

  it('live: a durable timer to each step the activity names (14 days each), until the loan is closed', async () => {
    const mocked = mockActivity([nextIn(14), nextIn(14), nextIn(14), closed]);
    const { worker, handle, loanNumber } = await start(mocked.activities, null);
    const result = await worker.runUntil(handle.result() as Promise<LoanLifecycleWorkflowResult>);
    expect(result).toEqual({ status: 'paid_off', advances: 4 });
    expect(mocked.calls.map((c) => c.input.loanId)).toEqual([LOAN_ID, LOAN_ID, LOAN_ID, LOAN_ID]);
    expect(mocked.calls[0]!.input.loanNumber).toBe(loanNumber);
    // Each call's clock is the workflow's time, 14 days after the previous one (the real clock: no offset).
    for (let i = 1; i < 4; i++) expect(clockOf(mocked.calls[i]!) - clockOf(mocked.calls[i - 1]!)).toBeGreaterThanOrEqual(14 * DAY);
    for (const call of mocked.calls) expect(Math.abs(clockOf(call) - call.serverMs)).toBeLessThan(MINUTE);
    const timers = await timerDurations(handle);
    expect(timers).toHaveLength(3);
    for (const timer of timers) {
      expect(timer).toBeGreaterThan(14 * DAY - MINUTE);
      expect(timer).toBeLessThanOrEqual(14 * DAY);
    }
  });

  it('paymentReceived advances the loan at once (an in-app payment that paid it off closes it before the timer)', async () => {
    const mocked = mockActivity([nextIn(30), closed]);
    const { worker, handle } = await start(mocked.activities, null);
    const result = await worker.runUntil(async () => {
      await callsReach(mocked.calls, 1);
      await handle.signal(LOAN_SIGNALS.paymentReceived);
      return handle.result() as Promise<LoanLifecycleWorkflowResult>;
    });
    expect(result).toEqual({ status: 'paid_off', advances: 2 });
    expect(mocked.calls[1]!.serverMs - mocked.calls[0]!.serverMs).toBeLessThan(30 * DAY);
  });

  it('test mode: clockAdvanced moves the loan clock ahead of real time; the step falls due without waiting for it', async () => {
    const mocked = mockActivity([nextIn(14), nextIn(14), closed]);
    const { worker, handle } = await start(mocked.activities, 0);
    const result = await worker.runUntil(async () => {
      await callsReach(mocked.calls, 1);
      await handle.signal(LOAN_SIGNALS.clockAdvanced, { offsetMs: 14 * DAY });
      await callsReach(mocked.calls, 2);
      // A clock never moves back: a smaller offset is ignored.
      await handle.signal(LOAN_SIGNALS.clockAdvanced, { offsetMs: DAY });
      await handle.signal(LOAN_SIGNALS.clockAdvanced, { offsetMs: 28 * DAY });
      return handle.result() as Promise<LoanLifecycleWorkflowResult>;
    });
    expect(result).toEqual({ status: 'paid_off', advances: 3 });
    const [first, second, third] = mocked.calls as [Call, Call, Call];
    expect(clockOf(first) - first.serverMs).toBeLessThan(MINUTE);
    // The loan's clock is 14 (then 28) days ahead of the server's: the steps ran without 14 days passing.
    expect(clockOf(second) - second.serverMs).toBeGreaterThanOrEqual(14 * DAY - MINUTE);
    expect(second.serverMs - first.serverMs).toBeLessThan(14 * DAY);
    expect(clockOf(third) - third.serverMs).toBeGreaterThanOrEqual(28 * DAY - MINUTE);
    expect(third.serverMs - first.serverMs).toBeLessThan(14 * DAY);
  });

  it('test mode: a stored clock ahead of the workflow’s (its signal was lost) is caught up from the activity’s answer', async () => {
    const behind: Answer = (input) => ({ status: 'active', nextAt: new Date(Date.parse(input.at) + 14 * DAY).toISOString(), steps: [], testClockOffsetMs: 14 * DAY });
    const mocked = mockActivity([behind, closed]);
    const { worker, handle } = await start(mocked.activities, 0);
    const result = await worker.runUntil(async () => {
      await callsReach(mocked.calls, 2);
      return handle.result() as Promise<LoanLifecycleWorkflowResult>;
    });
    expect(result).toEqual({ status: 'paid_off', advances: 2 });
    const [first, second] = mocked.calls as [Call, Call];
    expect(second.serverMs - first.serverMs).toBeLessThan(DAY);
    expect(clockOf(second) - second.serverMs).toBeGreaterThanOrEqual(14 * DAY - MINUTE);
  });

  it('live: clockAdvanced is ignored (live loans always use the real clock)', async () => {
    const mocked = mockActivity([nextIn(14), closed]);
    const { worker, handle } = await start(mocked.activities, null);
    const result = await worker.runUntil(async () => {
      await callsReach(mocked.calls, 1);
      await handle.signal(LOAN_SIGNALS.clockAdvanced, { offsetMs: 14 * DAY });
      return handle.result() as Promise<LoanLifecycleWorkflowResult>;
    });
    expect(result).toEqual({ status: 'paid_off', advances: 2 });
    const [first, second] = mocked.calls as [Call, Call];
    expect(clockOf(second) - clockOf(first)).toBeGreaterThanOrEqual(14 * DAY);
    expect(second.serverMs - first.serverMs).toBeGreaterThan(14 * DAY - MINUTE);
    expect(Math.abs(clockOf(second) - second.serverMs)).toBeLessThan(MINUTE);
  });

  it('ends when the loan is gone (not_found) without waiting', async () => {
    const mocked = mockActivity([() => ({ status: 'not_found', nextAt: null, steps: [], testClockOffsetMs: null })]);
    const { worker, handle } = await start(mocked.activities, null);
    expect(await worker.runUntil(handle.result() as Promise<LoanLifecycleWorkflowResult>)).toEqual({ status: 'not_found', advances: 1 });
    expect(await timerDurations(handle)).toEqual([]);
  });
});
