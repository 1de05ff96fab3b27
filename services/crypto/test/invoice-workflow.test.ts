// The invoice expiry workflow end to end on the time-skipping Temporal test server: a real PostgreSQL database with
// crypto's migrations, the real PaymentRequestService / PaymentService starting and signalling the workflow through the
// workflow outbox, and a real worker on the crypto task queue running the real activities.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tsToMs } from '@temporalio/common/lib/time.js';
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createWorkflowOutbox, enqueueWorkflowStart, migrateUp, WorkflowOutboxEntry, type WorkflowOutbox } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { invoiceWorkflowId, type ExpireInvoiceInput, type InvoiceExpiryWorkflowResult } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { createServiceWorker } from '@tributary/workflows/worker';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createInvoiceActivities, invoiceExpiryStart } from '../src/modules/invoice-workflow/index.js';
import { PaymentRequest, PaymentRequestService, type PaymentDomainEvent, type PaymentEventSink } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { openDatabase } from '../src/service.js';
import { createMerchant, createRequest } from './helpers.js';

const MINUTE = 60_000;

let env: TestWorkflowEnvironment;
let db: TestDatabase;
let orm: MikroORM;
let accountId: number;
let outbox: WorkflowOutbox;
const emitted: PaymentDomainEvent[] = [];
const sink: PaymentEventSink = {
  emit: async (_tx, _request, events) => {
    emitted.push(...events);
    return undefined;
  },
};
const principal = () => ({ accountId, apiKeyId: 0 });
/** The domain as the HTTP process has it: workflow commands dispatched after each commit (`dispatch: false`: a crash before). */
const requests = (options: { now?: () => Date; dispatch?: boolean } = {}) =>
  new PaymentRequestService(orm.em.fork(), { events: sink, ...(options.dispatch === false ? {} : { outbox }), ...(options.now ? { now: options.now } : {}) });
/** expireInvoiceIfDue calls per request id. */
const activityCalls = new Map<number, number>();

beforeAll(async () => {
  db = await createTestDatabase('crypto_invoice_wf');
  orm = await openDatabase(db.url);
  await migrateUp(orm);
  accountId = (await createMerchant({ orm }, 'Expiry')).accountId;
  env = await startTimeSkippingEnvironment();
  outbox = createWorkflowOutbox({ em: orm.em, client: env.client });
}, 120_000);
afterAll(async () => {
  await env?.teardown();
  await orm?.close();
  await db?.drop();
});

/** The real activities; the service's clock is the Temporal server's (time-skipped) clock when the activity runs. */
async function newWorker() {
  let serverNow = new Date();
  const real = createInvoiceActivities({ paymentRequests: requests({ now: () => serverNow }) });
  const activities = {
    async expireInvoiceIfDue(input: ExpireInvoiceInput) {
      activityCalls.set(input.paymentRequestId, (activityCalls.get(input.paymentRequestId) ?? 0) + 1);
      serverNow = new Date(await env.currentTimeMs());
      return real.expireInvoiceIfDue(input);
    },
  };
  return createServiceWorker({ service: 'crypto', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
}

/** An invoice whose workflow start has been dispatched (after-commit dispatch runs in the background). */
async function createInvoice(ttlMinutes = 60, dispatch = true): Promise<PaymentRequest> {
  const invoice = await createRequest(requests({ dispatch }), principal(), { asset_id: 1, title: 'Order 1', amount: '0.5', ttl_minutes: ttlMinutes });
  await outbox.idle();
  return invoice;
}
const handleOf = (request: PaymentRequest): WorkflowHandle => env.client.workflow.getHandle(invoiceWorkflowId(request));
const reload = (id: number) => orm.em.fork().findOneOrFail(PaymentRequest, { id });
const eventsFor = (id: number) => emitted.filter((e) => e.paymentRequestId === id).map((e) => e.event);

async function timerDurations(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

describe('invoice expiry workflow', () => {
  it('an invoice with ttl 60 minutes is expired after a durable 60-minute timer: expireIfDue ran once, payment.expired once', async () => {
    const invoice = await createInvoice(60);
    const handle = handleOf(invoice);
    const started = await handle.describe();
    expect(started.taskQueue).toBe('crypto');
    expect(started.type).toBe('invoiceExpiryWorkflow');
    // What an operator reads in the Temporal UI: amount, asset and deadline, never the merchant's title or reference.
    const expiresAt = invoice.expiresAt!.toISOString();
    expect(await started.staticSummary()).toBe(`Invoice ${invoice.id}: ${invoice.amountRequested!.toString()} BTC, expires ${expiresAt}`);
    expect(await started.staticDetails()).toBe(`- payment request: ${invoice.id} (account ${accountId})\n- amount: ${invoice.amountRequested!.toString()} BTC\n- expires at: ${expiresAt}`);
    // The slug opens the payer view: it is in no workflow id, input, summary or details (the UI, history, logs, traces).
    expect(started.workflowId).toBe(`invoice-${invoice.id}-${invoice.createdAt.getTime()}`);
    const queued = await orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId: started.workflowId, kind: 'start' });
    expect(JSON.stringify([started.workflowId, queued.args, queued.summary, queued.details, await started.staticSummary()])).not.toContain(invoice.slug);
    // Starting again (a retry, a sweep) is idempotent: same entry, same run, no error.
    const again = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, invoiceExpiryStart({ ...invoice, expiresAt: invoice.expiresAt! })));
    expect(await outbox.dispatch([again.id])).toEqual({ dispatched: [again.id], failed: [] });
    expect((await handle.describe()).runId).toBe(started.runId);

    const worker = await newWorker();
    const result = await worker.runUntil(handle.result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });

    const [timer, ...more] = await timerDurations(handle);
    expect(more).toEqual([]);
    expect(timer).toBeGreaterThan(59 * MINUTE);
    expect(timer).toBeLessThanOrEqual(60 * MINUTE);
    expect(activityCalls.get(invoice.id)).toBe(1);
    expect((await reload(invoice.id)).status).toBe('expired');
    expect(eventsFor(invoice.id)).toEqual(['payment.expired']);
    // A second run of the same activity changes nothing and emits nothing (idempotent).
    expect((await requests().expireIfDue(invoice.id)).events).toEqual([]);
    expect(eventsFor(invoice.id)).toEqual(['payment.expired']);
  });

  it('the cancelled signal (queued by cancel, dispatched after commit) ends the workflow without expiring', async () => {
    const invoice = await createInvoice(60);
    await requests().cancel(principal(), invoice.id);
    await outbox.idle();
    const worker = await newWorker();
    const result = await worker.runUntil(handleOf(invoice).result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'cancelled', status: null });
    expect(activityCalls.get(invoice.id)).toBeUndefined();
    expect((await reload(invoice.id)).status).toBe('cancelled');
    expect(eventsFor(invoice.id)).toEqual([]);
  });

  it('the settled signal (queued by a full payment, dispatched after commit) ends the workflow: a paid invoice is not expired', async () => {
    const invoice = await createInvoice(60);
    const recorded = await new PaymentService(orm.em.fork(), { events: sink, outbox }).record({
      chain: 'bitcoin', txid: 'settledtx01', index: 0, amount: '0.5', confirmations: 6, to: { slug: invoice.slug },
    });
    await outbox.idle();
    expect(recorded.paymentRequest.status).toBe('paid');
    const worker = await newWorker();
    const result = await worker.runUntil(handleOf(invoice).result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'settled', status: null });
    expect(activityCalls.get(invoice.id)).toBeUndefined();
    expect((await reload(invoice.id)).status).toBe('paid');
    expect(eventsFor(invoice.id)).toEqual(['payment.paid']);
  });

  it('a settled invoice whose signal was lost is still not expired when the timer fires', async () => {
    const invoice = await createInvoice(30);
    // Paid by a process that died before dispatching: the settled signal stays in the outbox, never reaching the workflow.
    await new PaymentService(orm.em.fork(), { events: sink }).record({
      chain: 'bitcoin', txid: 'settledtx02', index: 0, amount: '0.6', confirmations: 6, to: { slug: invoice.slug },
    });
    const worker = await newWorker();
    const result = await worker.runUntil(handleOf(invoice).result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'unchanged', status: 'overpaid' });
    expect(activityCalls.get(invoice.id)).toBe(1);
    expect((await reload(invoice.id)).status).toBe('overpaid');
    expect(eventsFor(invoice.id)).toEqual(['payment.paid']);
  });

  it('donations never expire: no workflow is started', async () => {
    const donation = await createRequest(requests(), principal(), { asset_id: 1, title: 'Tip jar', type: 'donation' });
    await outbox.idle();
    await expect(handleOf(donation).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await orm.em.fork().count(WorkflowOutboxEntry, { workflowId: invoiceWorkflowId(donation) })).toBe(0);
  });
});

describe('a crash between commit and dispatch', () => {
  it("the invoice's start waits in the outbox; the sweep starts the workflow, which expires the invoice once", async () => {
    const orphan = await createInvoice(10, false);
    await expect(handleOf(orphan).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    const swept = await outbox.sweep({ olderThanMs: 0 });
    expect(swept.failed).toEqual([]);
    const worker = await newWorker();
    const result = await worker.runUntil(handleOf(orphan).result() as Promise<InvoiceExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    expect(activityCalls.get(orphan.id)).toBe(1);
    expect((await reload(orphan.id)).status).toBe('expired');
    expect(eventsFor(orphan.id)).toEqual(['payment.expired']);
  });
});
