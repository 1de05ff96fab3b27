// The invoice expiry workflow alone, as Temporal's samples test workflows: the real workflow code on the time-skipping
// test server with its activity mocked, so the timer, the signals and the `not_due` re-check are checked without a
// database. (crypto's tests run it end to end with the real activity and database.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ExpireInvoiceInput, ExpireInvoiceResult, InvoiceExpiryActivities } from '../src/activities.js';
import { INVOICE_SIGNALS, WORKFLOW_TYPES, invoiceWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { InvoiceExpiryWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';

const MINUTE = 60_000;
let env: TestWorkflowEnvironment;
// Each start gets its own creation instant, so ids never repeat within the shared test environment.
let workflowCount = 0;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** A mocked activity answering `answers` in turn (given the server time of the call); calls are recorded with it. */
function mockActivity(answers: Array<(nowMs: number) => ExpireInvoiceResult>) {
  const calls: Array<{ input: ExpireInvoiceInput; atMs: number }> = [];
  const activities: InvoiceExpiryActivities = {
    async expireInvoiceIfDue(input) {
      const atMs = await env.currentTimeMs();
      calls.push({ input, atMs });
      return answers[Math.min(calls.length, answers.length) - 1]!(atMs);
    },
  };
  return { activities, calls };
}

async function start(expiresInMs: number, activities: InvoiceExpiryActivities) {
  const worker = await createServiceWorker({ service: 'crypto', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const startedAtMs = await env.currentTimeMs();
  const expiresAt = new Date(startedAtMs + expiresInMs).toISOString();
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.invoiceExpiry, {
    taskQueue: 'crypto',
    workflowId: invoiceWorkflowId({ id: 7, createdAt: new Date(startedAtMs + (workflowCount += 1)) }),
    args: [{ paymentRequestId: 7, expiresAt }],
  });
  return { worker, handle, startedAtMs, expiresAt };
}

const expired = (): ExpireInvoiceResult => ({ outcome: 'expired', status: 'expired', expiresAt: null });

describe('invoiceExpiryWorkflow with a mocked activity', () => {
  it('waits for the deadline (a durable timer), then calls the activity once', async () => {
    const mocked = mockActivity([expired]);
    const { worker, handle, startedAtMs } = await start(30 * MINUTE, mocked.activities);
    const result = await worker.runUntil(handle.result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    expect(mocked.calls).toHaveLength(1);
    expect(mocked.calls[0]!.input).toEqual({ paymentRequestId: 7 });
    expect(mocked.calls[0]!.atMs - startedAtMs).toBeGreaterThanOrEqual(30 * MINUTE);
  });

  it('a `not_due` answer (worker clock behind) waits for the deadline it reports, then checks again', async () => {
    const notDue = (nowMs: number): ExpireInvoiceResult => ({ outcome: 'not_due', status: 'pending', expiresAt: new Date(nowMs + 10 * MINUTE).toISOString() });
    const mocked = mockActivity([notDue, expired]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    const result = await worker.runUntil(handle.result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    expect(mocked.calls).toHaveLength(2);
    expect(mocked.calls[1]!.atMs - mocked.calls[0]!.atMs).toBeGreaterThanOrEqual(10 * MINUTE);
  });

  for (const signal of [INVOICE_SIGNALS.settled, INVOICE_SIGNALS.cancelled]) {
    it(`the ${signal} signal ends it before the deadline without calling the activity`, async () => {
      const mocked = mockActivity([expired]);
      const { worker, handle } = await start(60 * MINUTE, mocked.activities);
      const result = await worker.runUntil(async () => {
        await handle.signal(signal);
        return handle.result() as Promise<InvoiceExpiryWorkflowResult>;
      });
      expect(result).toEqual({ outcome: signal, status: null });
      expect(mocked.calls).toEqual([]);
    });
  }

  it('a `final` answer (settled, cancelled or gone meanwhile) ends it unchanged', async () => {
    const mocked = mockActivity([() => ({ outcome: 'final', status: 'paid', expiresAt: null })]);
    const { worker, handle } = await start(MINUTE, mocked.activities);
    expect(await worker.runUntil(handle.result() as Promise<InvoiceExpiryWorkflowResult>)).toEqual({ outcome: 'unchanged', status: 'paid' });
  });
});
