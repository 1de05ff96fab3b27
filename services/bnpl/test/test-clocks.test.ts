// Test clocks: a merchant advances its test clock (the admin command, the GraphQL mutation) and its open test-mode
// loans behave as if that much time had passed, on bnpl's real worker, with no time skipped by the test server: the new
// time reaches each loan's workflow as the clockAdvanced signal. Live loans keep the real clock.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WorkflowOutboxEntry, createLogger, createWorkflowOutbox, generateSecretBoxKey, type WorkflowOutbox } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { loanWorkflowId } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { runAdminCommand } from '../src/admin/commands.js';
import { Installment, Loan, TEST_CLOCK_DURATION_MESSAGE, TestClockService, parseTestClockDuration } from '../src/modules/loans/index.js';
import { Settlement, SettlementLine } from '../src/modules/settlements/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createApiKey, createFundedLoan, createMerchant, createWidgetSession, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];
const DAY = 86_400_000;

let env: TimeSkippingEnvironment;
let h: Harness;
let receiver: HttpsReceiver;
let worker: RunningWorker;
let outbox: WorkflowOutbox;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: env.address } });
  receiver = await startHttpsReceiver();
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'bnpl', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    env: { SECRETS_ENCRYPTION_KEY: KEY },
  });
  outbox = createWorkflowOutbox({ em: h.orm.em, client: env.client });
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await env?.teardown();
  await receiver?.close();
  await h?.close();
});

async function checkout(shop: TestMerchant, livemode: boolean): Promise<Loan> {
  const session = await createWidgetSession(h, shop, { amountCents: 20_000, livemode });
  expect((await fetch(`${h.service.url}/checkout/${session.token}`)).status).toBe(200);
  const confirmed = await fetch(`${h.service.url}/checkout/${session.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ plan_id: 'pay_in_4', email: 'jo@example.com', terms: 'accepted' }).toString(),
    redirect: 'manual',
  });
  expect(confirmed.status).toBe(303);
  const loan = await h.orm.em.fork().findOneOrFail(Loan, { session: session.id });
  await waitFor(() => h.orm.em.fork().find(WorkflowOutboxEntry, { workflowId: loanWorkflowId(loan.loanNumber), kind: 'start' }), (entries) => entries[0]?.dispatchedAt != null);
  return loan;
}

const stored = (loan: Loan) => h.orm.em.fork().findOneOrFail(Loan, { id: loan.id });
const installmentsOf = (loan: Loan) => h.orm.em.fork().find(Installment, { loan: loan.id }, { orderBy: { installmentNumber: 'asc' } });
const dueAt = (dueDate: string) => new Date(`${dueDate}T00:00:00.000Z`).toISOString();
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const paidCount = async (loan: Loan) => (await installmentsOf(loan)).filter((i) => i.status === 'paid').length;
const ADVANCE = `mutation($by: String!) { advanceBnplTestClock(by: $by) { offsetSeconds now } }`;

describe('test clock durations', () => {
  it('whole days, hours or minutes; anything else is refused', () => {
    expect([parseTestClockDuration('14d'), parseTestClockDuration('36h'), parseTestClockDuration('90m')]).toEqual([14 * 86_400, 36 * 3_600, 90 * 60]);
    for (const bad of ['', '0d', '14', 'd', '2w', '-1d', '1.5d', '14 d', '1234567d', ' 14d']) expect(parseTestClockDuration(bad)).toBeNull();
  });
});

describe('test clocks on the real worker', () => {
  it('advancing the clock collects the test-mode loan’s installments as if the time had passed; the live loan is untouched', async () => {
    const shop = await createMerchant(h, 'Clock Shop');
    const hook = await fetch(`${h.service.url}/api/v1/merchant/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/clock`, events: ['installment.paid', 'loan.completed'] }),
    });
    expect(hook.status).toBe(201);
    const testLoan = await checkout(shop, false);
    const liveLoan = await checkout(shop, true);
    for (const loan of [testLoan, liveLoan]) await waitFor(() => stored(loan), (l) => l.status === 'active', 30_000);

    // The operator's command: 14 days. The test-mode loan's second installment falls due and is debited.
    const advanced = await runAdminCommand(['clock', 'advance', '--merchant', shop.merchant.id, '--by', '14d'], { em: h.orm.em.fork(), outbox: () => outbox });
    expect(advanced.json).toMatchObject({ merchant_id: shop.merchant.id, offset_seconds: 14 * 86_400, loans_signalled: 1 });
    await waitFor(() => paidCount(testLoan), (n) => n === 2, 30_000);
    const second = (await installmentsOf(testLoan))[1]!;
    expect(second.paidAt!.toISOString()).toBe(dueAt(second.dueDate));
    expect(second.paidAt!.getTime()).toBeGreaterThan(Date.now() + 12 * DAY);

    // The dashboard's mutation: 28 more days. The loan is paid off and its workflow ends.
    const { body } = await gql(h.service.url, ADVANCE, { authorization: `Bearer ${shop.token}` }, { by: '28d' });
    const clock = (body.data as { advanceBnplTestClock: { offsetSeconds: number; now: string } }).advanceBnplTestClock;
    expect(clock.offsetSeconds).toBe(42 * 86_400);
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(41 * DAY);
    await waitFor(() => stored(testLoan), (l) => l.status === 'paid_off', 30_000);
    // Its workflow has ended. Read with describe(), not result(): the time-skipping server skips time while a client
    // awaits a result, which would move the other loans' timers (the live loan's, the next loan's) along with it.
    const ended = await waitFor(() => env.client.workflow.getHandle(loanWorkflowId(testLoan.loanNumber)).describe(), (d) => d.status.name !== 'RUNNING', 30_000);
    expect(ended.status.name).toBe('COMPLETED');
    // The events went out as the clock moved: the test loan's four installment.paid and its loan.completed.
    const ofTestLoan = async () =>
      receiver.requests
        .filter((r) => r.path === '/clock')
        .map((r) => JSON.parse(r.body.toString('utf8')) as { event: string; data: { loan_id: string } })
        .filter((hook) => hook.data.loan_id === testLoan.id)
        .map((hook) => hook.event)
        .sort();
    expect(await waitFor(ofTestLoan, (events) => events.length >= 5, 30_000)).toEqual(['installment.paid', 'installment.paid', 'installment.paid', 'installment.paid', 'loan.completed']);

    // The dashboard sees the collection progress (GraphQL installment status and attempts).
    const sales = await gql(h.service.url, `{ bnplMerchant { loans { loanNumber installments { installmentNumber status attemptCount } } } }`, { authorization: `Bearer ${shop.token}` });
    const views = (sales.body.data as { bnplMerchant: { loans: Array<{ loanNumber: string; installments: Array<{ status: string; attemptCount: number }> }> } }).bnplMerchant.loans;
    expect(views.find((l) => l.loanNumber === testLoan.loanNumber)!.installments.map((i) => [i.status, i.attemptCount])).toEqual(Array.from({ length: 4 }, () => ['PAID', 1]));
    expect(views.find((l) => l.loanNumber === liveLoan.loanNumber)!.installments.map((i) => i.status)).toEqual(['PAID', 'PENDING', 'PENDING', 'PENDING']);

    // The live loan keeps the real clock: its second installment, due in 14 real days, is still pending.
    expect((await installmentsOf(liveLoan)).map((i) => i.status)).toEqual(['paid', 'pending', 'pending', 'pending']);
    expect((await stored(liveLoan)).status).toBe('active');
    await env.client.workflow.getHandle(loanWorkflowId(liveLoan.loanNumber)).terminate('test over');

    // A test-mode loan booked now is scheduled from the clock's today, and the clock reads back.
    const later = await checkout(shop, false);
    expect((await installmentsOf(later))[0]!.dueDate).toBe(isoDay(Date.now() + 42 * DAY));
    await waitFor(() => stored(later), (l) => l.status === 'active', 30_000);
    expect((await installmentsOf(later)).map((i) => i.status)).toEqual(['paid', 'pending', 'pending', 'pending']);
    const read = await gql(h.service.url, `{ bnplMerchant { testClock { offsetSeconds now } } }`, { authorization: `Bearer ${shop.token}` });
    expect((read.body.data as { bnplMerchant: { testClock: { offsetSeconds: number } } }).bnplMerchant.testClock.offsetSeconds).toBe(42 * 86_400);
    await env.client.workflow.getHandle(loanWorkflowId(later.loanNumber)).terminate('test over');
  }, 120_000);

  it('advancing the clock cuts and pays the test-mode settlements of the periods it passed; live sales wait for the real Schedule', async () => {
    const shop = await createMerchant(h, 'Clock Settlement Shop');
    const now = new Date();
    const testSale = await createFundedLoan(h, shop, { amountCents: 10_000, disbursedAt: now });
    const liveSale = await createFundedLoan(h, shop, { amountCents: 10_000, disbursedAt: now, livemode: true });
    await runAdminCommand(['clock', 'advance', '--merchant', shop.merchant.id, '--by', '14d'], { em: h.orm.em.fork(), outbox: () => outbox });
    const [batch, ...more] = await waitFor(
      () => h.orm.em.fork().find(Settlement, { merchant: shop.merchant.id }),
      (batches) => batches.length > 0 && batches.every((b) => b.status === 'paid'),
      30_000,
    );
    expect(more).toEqual([]);
    expect(batch).toMatchObject({ livemode: false, grossCents: 10_000, mdrCents: 0, netCents: 10_000, cadence: 'weekly' });
    expect(batch!.batch).toMatch(/-USD-test$/);
    const lines = await h.orm.em.fork().find(SettlementLine, { settlement: batch!.id });
    expect(lines.map((line) => line.loan?.id)).toEqual([testSale.id]);
    expect(await h.orm.em.fork().count(SettlementLine, { loan: liveSale.id })).toBe(0);
  });

  it('bad durations, another credential and unknown merchants are refused; nothing changes', async () => {
    const shop = await createMerchant(h, 'Clock Refusals');
    const bad = await gql(h.service.url, ADVANCE, { authorization: `Bearer ${shop.token}` }, { by: '2w' });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const key = await createApiKey(h, shop, 'test');
    const byKey = await gql(h.service.url, ADVANCE, key.keys, { by: '1d' });
    expect(byKey.body.errors?.[0]).toMatchObject({ message: 'Test clocks are managed with a dashboard token.', extensions: { code: 'FORBIDDEN' } });
    const deps = { em: h.orm.em.fork(), outbox: () => outbox };
    await expect(runAdminCommand(['clock', 'advance', '--merchant', shop.merchant.id, '--by', 'soon'], deps)).rejects.toMatchObject({ fields: { by: [TEST_CLOCK_DURATION_MESSAGE] } });
    await expect(runAdminCommand(['clock', 'advance', '--merchant', crypto.randomUUID(), '--by', '1d'], deps)).rejects.toThrow(/No merchant with id/);
    await expect(new TestClockService(h.orm.em.fork()).advance(shop.merchant.id, '3651d')).rejects.toMatchObject({ fields: { by: [expect.stringContaining('at most 3650 days')] } });
    expect((await new TestClockService(h.orm.em.fork()).read(shop.merchant.id)).offsetSeconds).toBe(0);
  });
});
