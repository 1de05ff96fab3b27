// The widget session expiry workflow alone: the real workflow code on the time-skipping test server with its activity
// mocked, so the 30-minute timer, the `authorized` and `cancelled` signals and the `not_due` re-check are checked
// without a database. (bnpl's tests run it end to end with the real activity, database and worker.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tsToMs } from '@temporalio/common/lib/time.js';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ExpireWidgetSessionInput, ExpireWidgetSessionResult, WidgetSessionExpiryActivities } from '../src/activities.js';
import { TASK_QUEUES, WIDGET_SESSION_SIGNALS, WORKFLOW_TYPES, widgetSessionWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { WidgetSessionExpiryWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';
import * as workflows from '../src/workflows/index.js';

const MINUTE = 60_000;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** A mocked activity answering `answers` in turn (given the server time of the call); calls are recorded with it. */
function mockActivity(answers: Array<(nowMs: number) => ExpireWidgetSessionResult>) {
  const calls: Array<{ input: ExpireWidgetSessionInput; atMs: number }> = [];
  const activities: WidgetSessionExpiryActivities = {
    async expireWidgetSessionIfDue(input) {
      const atMs = await env.currentTimeMs();
      calls.push({ input, atMs });
      return answers[Math.min(calls.length, answers.length) - 1]!(atMs);
    },
  };
  return { activities, calls };
}

/** Starts the workflow as bnpl does; `extraInput` adds fields to its input (what earlier releases sent). */
async function start(expiresInMs: number, activities: WidgetSessionExpiryActivities, extraInput: object = {}) {
  const worker = await createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const sessionId = crypto.randomUUID();
  const startedAtMs = await env.currentTimeMs();
  const expiresAt = new Date(startedAtMs + expiresInMs).toISOString();
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.widgetSessionExpiry, {
    taskQueue: TASK_QUEUES.bnpl,
    workflowId: widgetSessionWorkflowId(sessionId),
    args: [{ sessionId, expiresAt, ...extraInput }],
  });
  return { worker, handle, startedAtMs, sessionId };
}

async function timerDurations(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

const expired = (): ExpireWidgetSessionResult => ({ outcome: 'expired', status: 'expired', expiresAt: null });

describe('widgetSessionExpiryWorkflow with a mocked activity', () => {
  it('is the registered type, with the authorized and cancelled signals, on the bnpl queue', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.widgetSessionExpiry]).toBe('function');
    expect(WIDGET_SESSION_SIGNALS).toEqual({ authorized: 'authorized', cancelled: 'cancelled' });
  });

  it('is named by the session id, never the session token (a capability): a token is refused', () => {
    expect(widgetSessionWorkflowId('c6a0f2b4-4a43-4d0e-9a55-1f1b7f3f5a10')).toBe('widget-session-c6a0f2b4-4a43-4d0e-9a55-1f1b7f3f5a10');
    expect(() => widgetSessionWorkflowId('ws_Q2xV9kR7mT3pL8sN1bY4cH6dF0gJ5wZa')).toThrow(/session's id/);
    expect(() => widgetSessionWorkflowId('')).toThrow(/session's id/);
  });

  it('waits for the 30-minute deadline (one durable timer), then calls the activity once', async () => {
    const mocked = mockActivity([expired]);
    const { worker, handle, startedAtMs, sessionId } = await start(30 * MINUTE, mocked.activities);
    const result = await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    expect(mocked.calls).toHaveLength(1);
    expect(mocked.calls[0]!.input).toEqual({ sessionId });
    expect(mocked.calls[0]!.atMs - startedAtMs).toBeGreaterThanOrEqual(30 * MINUTE);
    const [timer, ...more] = await timerDurations(handle);
    expect(more).toEqual([]);
    expect(timer).toBeGreaterThan(29 * MINUTE);
    expect(timer).toBeLessThanOrEqual(30 * MINUTE);
  });

  it('a `not_due` answer (worker clock behind) waits for the deadline it reports, then checks again', async () => {
    const notDue = (nowMs: number): ExpireWidgetSessionResult => ({ outcome: 'not_due', status: 'eligible', expiresAt: new Date(nowMs + 2 * MINUTE).toISOString() });
    const mocked = mockActivity([notDue, expired]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    const result = await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    expect(mocked.calls).toHaveLength(2);
    expect(mocked.calls[1]!.atMs - mocked.calls[0]!.atMs).toBeGreaterThanOrEqual(2 * MINUTE);
  });

  it('a `not_due` answer with a deadline already passed waits at least a second before checking again', async () => {
    const notDue = (nowMs: number): ExpireWidgetSessionResult => ({ outcome: 'not_due', status: 'initialized', expiresAt: new Date(nowMs - MINUTE).toISOString() });
    const mocked = mockActivity([notDue, expired]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>);
    expect(mocked.calls[1]!.atMs - mocked.calls[0]!.atMs).toBeGreaterThanOrEqual(1_000);
  });

  for (const signal of [WIDGET_SESSION_SIGNALS.authorized, WIDGET_SESSION_SIGNALS.cancelled]) {
    it(`the ${signal} signal ends it before the deadline without calling the activity`, async () => {
      const mocked = mockActivity([expired]);
      const { worker, handle } = await start(30 * MINUTE, mocked.activities);
      const result = await worker.runUntil(async () => {
        await handle.signal(signal);
        return handle.result() as Promise<WidgetSessionExpiryWorkflowResult>;
      });
      expect(result).toEqual({ outcome: signal, status: null });
      expect(mocked.calls).toEqual([]);
    });
  }

  it('a `final` answer (authorized or cancelled meanwhile, signal lost) ends it unchanged', async () => {
    const mocked = mockActivity([() => ({ outcome: 'final', status: 'authorized', expiresAt: new Date().toISOString() })]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    expect(await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'unchanged', status: 'authorized' });
    expect(mocked.calls).toHaveLength(1);
  });

  it('a workflow started with the input of earlier releases (which carried the token) still runs to its deadline', async () => {
    const mocked = mockActivity([expired]);
    const { worker, handle, sessionId } = await start(MINUTE, mocked.activities, { sessionToken: 'ws_Q2xV9kR7mT3pL8sN1bY4cH6dF0gJ5wZa' });
    expect(await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'expired', status: 'expired' });
    expect(mocked.calls.map((call) => call.input)).toEqual([{ sessionId }]);
  });

  it('gives up unchanged after ten `not_due` answers instead of waiting forever', async () => {
    const notDue = (nowMs: number): ExpireWidgetSessionResult => ({ outcome: 'not_due', status: 'eligible', expiresAt: new Date(nowMs + MINUTE).toISOString() });
    const mocked = mockActivity([notDue]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    expect(await worker.runUntil(handle.result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'unchanged', status: 'eligible' });
    expect(mocked.calls).toHaveLength(10);
  });
});
