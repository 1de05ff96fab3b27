// The loan lifecycle end to end: a shopper completes checkout over HTTP, the booking starts the loan's workflow through
// the outbox, and bnpl's real worker (real activities, real PostgreSQL) funds the loan and collects its installments on
// the time-skipping Temporal server, weeks passing in moments, with the signed events reaching a real HTTPS receiver.
// The test payment methods (picked by the shopper's e-mail) drive the three collection paths; the operator's in-app
// payment command pays the rest of a loan early.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhookDelivery, createLogger, createWorkflowOutbox, generateSecretBoxKey, WorkflowOutboxEntry, type WorkflowOutbox } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { loanWorkflowId, type LoanLifecycleWorkflowResult } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { runAdminCommand } from '../src/admin/commands.js';
import { Installment, Loan, LoanLifecycleService, bookLoan, createLoanActivities } from '../src/modules/loans/index.js';
import { planById } from '../src/modules/plans/index.js';
import { RefundService } from '../src/modules/refunds/index.js';
import { RESERVED_WEBHOOK_EVENTS, WEBHOOK_EVENT_NAMES } from '../src/modules/webhooks/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createMerchant, createWidgetSession, startHarness, type Harness, type TestMerchant } from './helpers.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];
const DAY = 86_400_000;
const LOAN_KEYS = ['loan_id', 'loan_number', 'merchant_id', 'principal_cents', 'total_cents', 'currency', 'status', 'purchase_reference', 'disbursed_at'];
const PAID_KEYS = ['loan_id', 'loan_number', 'installment_id', 'installment_number', 'amount_cents', 'paid_at'];
const MISSED_KEYS = ['loan_id', 'loan_number', 'installment_id', 'installment_number', 'due_date'];

let receiver: HttpsReceiver;
let env: TimeSkippingEnvironment;
let h: Harness;
let worker: RunningWorker;
let outbox: WorkflowOutbox;

// The time-skipping server keeps the time it skipped, while checkout books loans on the wall clock: every test gets a
// fresh server (and a service and worker bound to it), so each loan's workflow starts with the two clocks together.
beforeAll(async () => {
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

beforeEach(async () => {
  env = await startTimeSkippingEnvironment();
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: env.address } });
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'bnpl', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    env: { SECRETS_ENCRYPTION_KEY: KEY },
  });
  outbox = createWorkflowOutbox({ em: h.orm.em, client: env.client });
}, 180_000);

afterEach(async () => {
  // None of the seven reserved names was queued for any endpoint, though every endpoint subscribed to them.
  expect(await h.orm.em.fork().count(WebhookDelivery, { eventName: { $in: [...RESERVED_WEBHOOK_EVENTS] } })).toBe(0);
  await worker?.shutdown();
  await env?.teardown();
  await h?.close();
}, 60_000);

interface Hook {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A merchant with an endpoint at `/<path>` subscribed to all thirteen event names (the seven reserved ones too). */
async function merchantWithEndpoint(path: string): Promise<TestMerchant> {
  const shop = await createMerchant(h, `Lifecycle ${path}`);
  const res = await fetch(`${h.service.url}/api/v1/merchant/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/${path}`, events: WEBHOOK_EVENT_NAMES }),
  });
  expect(res.status).toBe(201);
  return shop;
}

/** The shopper's checkout over HTTP (Pay in 4 of 200.00: four installments of 50.00); waits for the workflow's start. */
async function checkout(shop: TestMerchant, email: string): Promise<Loan> {
  const session = await createWidgetSession(h, shop, { amountCents: 20_000, customerEmail: email });
  expect((await fetch(`${h.service.url}/checkout/${session.token}`)).status).toBe(200);
  const confirmed = await fetch(`${h.service.url}/checkout/${session.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ plan_id: 'pay_in_4', email, terms: 'accepted' }).toString(),
    redirect: 'manual',
  });
  expect(confirmed.status).toBe(303);
  const loan = await h.orm.em.fork().findOneOrFail(Loan, { session: session.id });
  await waitFor(() => h.orm.em.fork().find(WorkflowOutboxEntry, { workflowId: loanWorkflowId(loan.loanNumber), kind: 'start' }), (entries) => entries.length === 1 && entries[0]!.dispatchedAt !== null);
  return loan;
}

const result = (loan: Loan) => env.client.workflow.getHandle(loanWorkflowId(loan.loanNumber)).result() as Promise<LoanLifecycleWorkflowResult>;
const stored = (loan: Loan) => h.orm.em.fork().findOneOrFail(Loan, { id: loan.id });
const installmentsOf = (loan: Loan) => h.orm.em.fork().find(Installment, { loan: loan.id }, { orderBy: { installmentNumber: 'asc' } });
const hooksAt = (path: string): Hook[] => receiver.requests.filter((r) => r.path === `/${path}`).map((r) => JSON.parse(r.body.toString('utf8')) as Hook);
const eventsAt = (path: string) => hooksAt(path).map((hook) => hook.event).sort();
const dueAt = (dueDate: string) => new Date(`${dueDate}T00:00:00.000Z`).toISOString();

async function hooksReach(path: string, count: number): Promise<Hook[]> {
  return waitFor(async () => hooksAt(path), (hooks) => hooks.length >= count, 30_000);
}

describe('loan lifecycle on the real worker (time skipped)', () => {
  it('pm_test_success: funded at once (loan.funded), every installment auto-debited on its due date, loan.completed paid_off', async () => {
    const shop = await merchantWithEndpoint('success');
    const loan = await checkout(shop, 'jo@example.com');
    expect(loan.paymentMethod).toBe('pm_test_success');
    expect(await result(loan)).toEqual({ status: 'paid_off', advances: 4 });

    const hooks = await hooksReach('success', 7);
    expect(eventsAt('success')).toEqual(['installment.paid', 'installment.paid', 'installment.paid', 'installment.paid', 'loan.authorized', 'loan.completed', 'loan.funded']);
    const final = await stored(loan);
    const installments = await installmentsOf(loan);
    expect(final.status).toBe('paid_off');
    expect(final.disbursedAt).not.toBeNull();
    const byEvent = (event: string) => hooks.filter((hook) => hook.event === event);
    const loanData = (status: string) => ({
      loan_id: loan.id,
      loan_number: loan.loanNumber,
      merchant_id: shop.merchant.id,
      principal_cents: 20_000,
      total_cents: 20_000,
      currency: 'USD',
      status,
      purchase_reference: loan.purchaseReference,
      disbursed_at: final.disbursedAt!.toISOString(),
    });
    for (const [event, status] of [['loan.funded', 'funded'], ['loan.completed', 'paid_off']] as const) {
      expect(Object.keys(byEvent(event)[0]!.data)).toEqual(LOAN_KEYS);
      expect(byEvent(event)[0]!.data).toEqual(loanData(status));
    }
    const paid = byEvent('installment.paid').sort((a, b) => Number(a.data.installment_number) - Number(b.data.installment_number));
    for (const hook of paid) expect(Object.keys(hook.data)).toEqual(PAID_KEYS);
    expect(paid.map((hook) => hook.data)).toEqual(
      installments.map((i) => ({ loan_id: loan.id, loan_number: loan.loanNumber, installment_id: i.id, installment_number: i.installmentNumber, amount_cents: 5_000, paid_at: i.paidAt!.toISOString() })),
    );
    // The down payment (due at checkout) is taken when the loan is funded; the others at 00:00 UTC of their due date.
    expect(installments[0]!.paidAt!.toISOString()).toBe(final.disbursedAt!.toISOString());
    expect(installments.slice(1).map((i) => i.paidAt!.toISOString())).toEqual(installments.slice(1).map((i) => dueAt(i.dueDate)));
    expect(installments.map((i) => [i.status, i.attemptCount])).toEqual([['paid', 1], ['paid', 1], ['paid', 1], ['paid', 1]]);
  }, 120_000);

  it('pm_test_fail_once: each installment is declined once and paid on the first retry, a day past due', async () => {
    const shop = await merchantWithEndpoint('fail-once');
    const loan = await checkout(shop, 'jo+fail_once@example.com');
    expect(loan.paymentMethod).toBe('pm_test_fail_once');
    // Each installment takes two advances (declined, then paid a day later).
    expect(await result(loan)).toEqual({ status: 'paid_off', advances: 8 });
    await hooksReach('fail-once', 7);
    const installments = await installmentsOf(loan);
    expect(installments.map((i) => [i.status, i.attemptCount, i.lastDeclineCode])).toEqual(Array.from({ length: 4 }, () => ['paid', 2, 'insufficient_funds']));
    expect(installments.map((i) => i.paidAt!.toISOString())).toEqual(installments.map((i) => new Date(Date.parse(dueAt(i.dueDate)) + DAY).toISOString()));
    expect(eventsAt('fail-once')).toEqual(['installment.paid', 'installment.paid', 'installment.paid', 'installment.paid', 'loan.authorized', 'loan.completed', 'loan.funded']);
  }, 120_000);

  it('pm_test_always_fails: installments missed after four attempts (installment.missed), in_arrears → defaulted → written_off', async () => {
    const shop = await merchantWithEndpoint('always-fails');
    const loan = await checkout(shop, 'always_fails@example.com');
    expect(loan.paymentMethod).toBe('pm_test_always_fails');
    expect((await result(loan)).status).toBe('written_off');
    const hooks = await hooksReach('always-fails', 6);
    expect(eventsAt('always-fails')).toEqual(['installment.missed', 'installment.missed', 'installment.missed', 'installment.missed', 'loan.authorized', 'loan.funded']);
    const installments = await installmentsOf(loan);
    expect(installments.map((i) => [i.status, i.attemptCount, i.paidAt])).toEqual(Array.from({ length: 4 }, () => ['missed', 4, null]));
    const missed = hooks.filter((hook) => hook.event === 'installment.missed').sort((a, b) => Number(a.data.installment_number) - Number(b.data.installment_number));
    for (const hook of missed) expect(Object.keys(hook.data)).toEqual(MISSED_KEYS);
    expect(missed.map((hook) => hook.data)).toEqual(installments.map((i) => ({ loan_id: loan.id, loan_number: loan.loanNumber, installment_id: i.id, installment_number: i.installmentNumber, due_date: i.dueDate })));
    // Missed at the 4th attempt, 7 days past due; defaulted 60 days after the first miss; written off 90 days later.
    const final = await stored(loan);
    expect(final.arrearsSince!.toISOString()).toBe(new Date(Date.parse(dueAt(installments[0]!.dueDate)) + 7 * DAY).toISOString());
    expect(final.defaultedAt!.getTime() - final.arrearsSince!.getTime()).toBe(60 * DAY);
    // A written-off loan takes no payment.
    await expect(new LoanLifecycleService(h.orm.em.fork()).payInstallment(loan.id, 1)).rejects.toThrow(`Loan ${loan.loanNumber} is written_off; it takes no payment.`);
  }, 120_000);

  it('in-app payment (operator command): the rest paid early, loan.completed at once, the workflow closes without waiting for due dates', async () => {
    const shop = await merchantWithEndpoint('in-app');
    const loan = await checkout(shop, 'jo@example.com');
    await waitFor(() => stored(loan), (l) => l.status === 'active', 30_000);
    const deps = { em: h.orm.em.fork(), outbox: () => outbox };
    const before = Date.now();
    const paid = await runAdminCommand(['installment', 'pay', '--loan', loan.loanNumber, '--number', '3'], deps);
    expect(paid.json).toMatchObject({ loan_id: loan.id, installment_number: 3, amount_cents: 5_000, status: 'active' });
    await expect(runAdminCommand(['installment', 'pay', '--loan', loan.id, '--number', '3'], deps)).rejects.toThrow(`Installment 3 of loan ${loan.loanNumber} is already paid.`);
    await expect(runAdminCommand(['installment', 'pay', '--loan', loan.id, '--number', 'x'], deps)).rejects.toThrow(/--number must be an installment number/);
    await expect(runAdminCommand(['installment', 'pay', '--loan', 'LN-00000-00000', '--number', '2'], deps)).rejects.toThrow(/No loan LN-00000-00000/);
    await runAdminCommand(['installment', 'pay', '--loan', loan.id, '--number', '2'], deps);
    const last = await runAdminCommand(['installment', 'pay', '--loan', loan.id, '--number', '4'], deps);
    expect(last.json).toMatchObject({ status: 'paid_off' });
    await outbox.idle();
    expect(await result(loan)).toMatchObject({ status: 'paid_off' });
    await hooksReach('in-app', 7);
    expect(eventsAt('in-app')).toEqual(['installment.paid', 'installment.paid', 'installment.paid', 'installment.paid', 'loan.authorized', 'loan.completed', 'loan.funded']);
    const installments = await installmentsOf(loan);
    for (const early of installments.slice(1)) {
      expect(early.paidAt!.getTime()).toBeGreaterThanOrEqual(before);
      expect(early.paidAt!.getTime()).toBeLessThan(Date.parse(dueAt(early.dueDate)));
    }
  }, 120_000);

  it('a declined in-app payment is refused and stores nothing', async () => {
    const shop = await merchantWithEndpoint('declined');
    const loan = await checkout(shop, 'always_fails@example.com');
    await waitFor(() => stored(loan), (l) => l.status === 'funded', 30_000);
    // The funding step queues the first auto-debit at once; wait for it so the count below is stable.
    await waitFor(() => installmentsOf(loan), (i) => i[0]!.attemptCount >= 1, 30_000);
    const attempts = (await installmentsOf(loan))[1]!.attemptCount;
    await expect(new LoanLifecycleService(h.orm.em.fork()).payInstallment(loan.id, 2)).rejects.toThrow('The payment was declined (insufficient_funds).');
    const after = await installmentsOf(loan);
    expect([after[1]!.status, after[1]!.attemptCount, after[1]!.paidAt]).toEqual(['pending', attempts, null]);
    await env.client.workflow.getHandle(loanWorkflowId(loan.loanNumber)).terminate('test over');
  }, 60_000);

  it('an operator cancels a loan not yet funded (loan cancel); its workflow then ends without funding it; a funded loan is refused', async () => {
    const shop = await merchantWithEndpoint('cancel');
    // A loan booked while its workflow has not run yet (as when Temporal is down): booked without the start.
    const session = await createWidgetSession(h, shop, { amountCents: 20_000, status: 'authorized' });
    const booked = await h.orm.em.fork().transactional((tx) => bookLoan(tx, { session, plan: planById('pay_in_4'), customer: { email: 'jo@example.com', phone: null }, bookedAt: new Date() }));
    const deps = { em: h.orm.em.fork() };
    expect((await runAdminCommand(['loan', 'cancel', booked.loanNumber], deps)).json).toEqual({ loan_id: booked.id, loan_number: booked.loanNumber, status: 'cancelled' });
    const activities = createLoanActivities({ lifecycle: new LoanLifecycleService(h.orm.em.fork()) });
    expect(await activities.advanceLoan({ loanId: booked.id, loanNumber: booked.loanNumber, at: new Date().toISOString() })).toEqual({ status: 'cancelled', nextAt: null, steps: [], testClockOffsetMs: 0 });
    expect((await stored(booked)).disbursedAt).toBeNull();
    await expect(runAdminCommand(['loan', 'cancel', booked.id], deps)).rejects.toThrow(`Loan ${booked.loanNumber} is cancelled; only a loan not yet funded can be cancelled.`);
    const funded = await checkout(shop, 'jo@example.com');
    await waitFor(() => stored(funded), (l) => l.disbursedAt !== null, 30_000);
    await expect(runAdminCommand(['loan', 'cancel', funded.id], deps)).rejects.toThrow(/only a loan not yet funded can be cancelled/);
    expect(eventsAt('cancel').filter((event) => event.startsWith('loan.cancel'))).toEqual([]);
    await env.client.workflow.getHandle(loanWorkflowId(funded.loanNumber)).terminate('test over');
  }, 60_000);

  it('a full refund before the due dates: the cut-to-zero installments are settled without a debit, even on a failing payment method', async () => {
    const shop = await merchantWithEndpoint('refunded');
    const loan = await checkout(shop, 'jo+always_fails@example.com');
    await waitFor(() => stored(loan), (l) => l.status === 'funded');
    const refunds = new RefundService(h.orm.em.fork());
    const { refund } = await refunds.create({ kind: 'dashboard', merchantId: shop.merchant.id, merchantUserId: shop.user.id, tokenId: shop.user.id }, { loanId: loan.id, amountCents: 20_000, reason: 'returned' });
    await refunds.beginProcessing(refund.id);
    expect((await refunds.complete(refund.id)).status).toBe('processed');
    expect((await installmentsOf(loan)).map((i) => i.amountCents)).toEqual([0, 0, 0, 0]);

    expect((await result(loan)).status).toBe('paid_off');
    expect((await installmentsOf(loan)).map((i) => [i.status, i.amountCents])).toEqual([['paid', 0], ['paid', 0], ['paid', 0], ['paid', 0]]);
    await hooksReach('refunded', 2);
    expect(eventsAt('refunded')).not.toContain('installment.missed');
  });

  it('none of the seven reserved event names reached an endpoint in any of the lifecycles above, though each subscribed to them', () => {
    expect(RESERVED_WEBHOOK_EVENTS).toEqual(['order.created', 'loan.cancelled', 'installment.due', 'refund.requested', 'refund.completed', 'dispute.opened', 'dispute.resolved']);
    expect(receiver.requests.length).toBeGreaterThan(20);
    const sent = new Set(receiver.requests.map((r) => String(r.headers['x-service-event'])));
    expect([...sent].sort()).toEqual(['installment.missed', 'installment.paid', 'loan.authorized', 'loan.completed', 'loan.funded']);
  });
});
