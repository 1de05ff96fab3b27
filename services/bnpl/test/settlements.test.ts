// Settlements on the real app, database and bnpl worker (spec "Settlement (payout)"; README Decisions
// "Settlements"): a cut covers every funded sale, processed refund and adjustment once, with each sale's MDR; the
// payout workflow settlement-<id> moves the batch to paid and queues settlement.processed with exactly the spec's keys;
// re-running a period cuts nothing; the merchant reads batches and what they cover over REST and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { WebhookDelivery, createLogger } from '@tributary/kit';
import { testTemporalAddress, waitFor } from '@tributary/kit/testing';
import { settlementScheduleId, settlementWorkflowId } from '@tributary/workflows';
import { Loan } from '../src/modules/loans/index.js';
import { Merchant } from '../src/modules/merchants/index.js';
import { Refund } from '../src/modules/refunds/index.js';
import { SETTLEMENT_SCHEDULE_CALENDARS, Settlement, SettlementAdjustment, SettlementService, ensureSettlementSchedules } from '../src/modules/settlements/index.js';
import { createSettlementWebhookSink, webhookEventId } from '../src/modules/webhooks/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createFundedLoan, createMerchant, gql, runAdmin, runAdminJson, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let worker: RunningWorker;
let temporal: Connection;
let client: Client;

beforeAll(async () => {
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
  temporal = await Connection.connect({ address: testTemporalAddress() });
  client = new Client({ connection: temporal });
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'bnpl', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: testTemporalAddress(), TEMPORAL_NAMESPACE: 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: ['127.0.0.1'] },
  });
}, 60_000);
afterAll(async () => {
  await worker?.shutdown();
  await temporal?.close();
  await h?.close();
});

const dt = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
const service = () => new SettlementService(h.orm.em.fork(), { events: createSettlementWebhookSink() });
/** The cut the weekly Schedule makes on Monday 2026-11-30 closes the week of 2026-11-23. */
const MONDAY = new Date('2026-11-30T00:15:00Z');

/** A sale funded at `at` (no lifecycle workflow: the worker of this file must not fund it at the real time). */
const funded = (shop: TestMerchant, amountCents: number, at: string, options: { livemode?: boolean; currency?: string } = {}) =>
  createFundedLoan(h, shop, { amountCents, disbursedAt: new Date(at), ...options });

async function liveShop(name: string, mdrBps = 290): Promise<TestMerchant> {
  const shop = await createMerchant(h, name);
  await h.orm.em.fork().nativeUpdate(Merchant, { id: shop.merchant.id }, { mdrBps, settlementCadence: 'weekly' });
  return shop;
}

async function subscribe(shop: TestMerchant): Promise<void> {
  const res = await fetch(`${h.service.url}/api/v1/merchant/webhooks`, {
    method: 'POST',
    headers: { ...dt(shop), 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://127.0.0.1:9/hooks', events: ['settlement.processed'] }),
  });
  expect(res.status).toBe(201);
}

async function get(path: string, shop: TestMerchant) {
  const res = await fetch(`${h.service.url}/api/v1/merchant${path}`, { headers: dt(shop) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('cutting a batch', () => {
  it('covers funded sales with their MDR, processed refunds and adjustments; net adds up; each item once', async () => {
    const shop = await liveShop('Settle Shop');
    const a = await funded(shop, 10_018, '2026-11-24T10:00:00Z', { livemode: true });
    const b = await funded(shop, 20_000, '2026-11-29T23:59:59Z', { livemode: true });
    const notFunded = await funded(shop, 30_000, '2026-11-24T10:00:00Z', { livemode: true });
    await h.orm.em.fork().nativeUpdate(Loan, { id: notFunded.id }, { status: 'approved', disbursedAt: null });
    const nextWeek = await funded(shop, 40_000, '2026-11-30T00:00:00Z', { livemode: true });
    const refund = h.orm.em.fork().create(Refund, { loan: b.id, merchant: shop.merchant.id, livemode: true, amountCents: 1_500, currency: 'USD', reason: 'r', status: 'processed', failureReason: null, returnedToShopperCents: 0, idempotencyKey: null, idempotencyFingerprint: null, processedAt: new Date('2026-11-28T00:00:00Z'), createdAt: new Date(), updatedAt: new Date() });
    await h.orm.em.fork().persist(refund).flush();
    const adjustment = await service().adjust(shop.merchant.id, { amountCents: 250, currency: 'USD', livemode: true, reason: 'goodwill' });
    await h.orm.em.fork().nativeUpdate(SettlementAdjustment, { id: adjustment.id }, { createdAt: new Date('2026-11-25T00:00:00Z') });

    const [batch, ...more] = await service().cut(shop.merchant.id, MONDAY);
    expect(more).toEqual([]);
    expect(batch).toMatchObject({ batch: '2026-11-23..2026-11-29-USD', status: 'pending', grossCents: 30_018, mdrCents: 291 + 580, refundsCents: 1_500, adjustmentsCents: 250, netCents: 30_018 - 871 - 1_500 + 250, mdrBps: 290 });

    const detail = await get(`/settlements/${batch!.id}`, shop);
    expect(detail.status).toBe(200);
    const sales = detail.body.sales as Array<{ loan_id: string; principal_cents: number; mdr_cents: number }>;
    expect(sales.map((s) => [s.loan_id, s.principal_cents, s.mdr_cents]).sort()).toEqual([[a.id, 10_018, 291], [b.id, 20_000, 580]].sort());
    expect(detail.body.refunds).toEqual([{ refund_id: refund.id, loan_id: b.id, amount_cents: 1_500 }]);
    expect(detail.body.adjustments).toEqual([{ adjustment_id: adjustment.id, amount_cents: 250, reason: 'goodwill' }]);
    expect(detail.body).toMatchObject({ period_start: '2026-11-23', period_end: '2026-11-29', net_cents: batch!.netCents, currency: 'USD', livemode: true });
    expect(sales.some((s) => s.loan_id === notFunded.id || s.loan_id === nextWeek.id)).toBe(false);

    // Re-running the period, even concurrently, cuts nothing more.
    expect((await Promise.all([service().cut(shop.merchant.id, MONDAY), service().cut(shop.merchant.id, new Date('2026-12-06T23:00:00Z'))])).flat()).toEqual([]);
    expect(await h.orm.em.fork().count(Settlement, { merchant: shop.merchant.id })).toBe(1);

    // The next week's cut takes the sale funded after the period and nothing already settled.
    const [following] = await service().cut(shop.merchant.id, new Date('2026-12-07T00:15:00Z'));
    expect(following).toMatchObject({ batch: '2026-11-30..2026-12-06-USD', grossCents: 40_000, refundsCents: 0, adjustmentsCents: 0 });
  });

  it('one batch per currency and mode; test mode has no MDR; a refund of a settled sale is deducted in the next batch', async () => {
    const shop = await liveShop('Multi Shop', 100);
    await funded(shop, 10_000, '2026-11-25T00:00:00Z');
    const eurLive = await funded(shop, 10_000, '2026-11-25T00:00:00Z', { currency: 'EUR', livemode: true });
    const batches = await service().cut(shop.merchant.id, MONDAY);
    expect(batches.map((s) => [s.batch, s.grossCents, s.mdrCents]).sort()).toEqual(
      [
        ['2026-11-23..2026-11-29-EUR', 10_000, 100],
        ['2026-11-23..2026-11-29-USD-test', 10_000, 0],
      ].sort(),
    );
    const late = h.orm.em.fork().create(Refund, { loan: eurLive.id, merchant: shop.merchant.id, livemode: true, amountCents: 900, currency: 'EUR', reason: 'late', status: 'processed', failureReason: null, returnedToShopperCents: 0, idempotencyKey: null, idempotencyFingerprint: null, processedAt: new Date('2026-12-01T00:00:00Z'), createdAt: new Date(), updatedAt: new Date() });
    await h.orm.em.fork().persist(late).flush();
    const [next] = await service().cut(shop.merchant.id, new Date('2026-12-07T00:15:00Z'));
    expect(next).toMatchObject({ batch: '2026-11-30..2026-12-06-EUR', grossCents: 0, refundsCents: 900, netCents: -900 });
  });
});

describe('payout', () => {
  it('the workflow settlement-<id> pays the batch and queues settlement.processed with exactly the spec keys', async () => {
    const shop = await liveShop('Payout Shop');
    await subscribe(shop);
    await funded(shop, 10_000, '2026-11-26T00:00:00Z', { livemode: true });
    const outboxed = new SettlementService(h.orm.em.fork(), { outbox: undefined, events: createSettlementWebhookSink() });
    const [batch] = await outboxed.cut(shop.merchant.id, MONDAY);
    // No outbox here: the worker's sweeper would take 30 s, so dispatch the payout start as the service would.
    await client.workflow.start('settlementPayoutWorkflow', { taskQueue: 'bnpl', workflowId: settlementWorkflowId(batch!.id), args: [{ settlementId: batch!.id }] });
    expect(await client.workflow.getHandle(settlementWorkflowId(batch!.id)).result()).toEqual({ status: 'paid' });
    const paid = await h.orm.em.fork().findOneOrFail(Settlement, { id: batch!.id });
    expect(paid).toMatchObject({ status: 'paid', paidAt: expect.any(Date) });
    const [delivery] = await waitFor(() => h.orm.em.fork().find(WebhookDelivery, { eventId: webhookEventId('settlement.processed', batch!.id) }), (rows) => rows.length === 1);
    const body = JSON.parse(delivery!.body) as { event: string; data: Record<string, unknown> };
    expect(body.event).toBe('settlement.processed');
    expect(body.data).toEqual({ settlement_id: batch!.id, batch: batch!.batch, gross_cents: 10_000, mdr_cents: 290, net_cents: 9_710, currency: 'USD' });
    // A replayed payout changes nothing and queues nothing more.
    expect((await outboxed.payOut(batch!.id)).status).toBe('paid');
    expect(await h.orm.em.fork().count(WebhookDelivery, { eventId: webhookEventId('settlement.processed', batch!.id) })).toBe(1);
  });

  it('the worker creates one Schedule per cadence (00:15 UTC), and creating them again changes nothing', async () => {
    for (const cadence of ['daily', 'weekly', 'monthly'] as const) {
      const described = await waitFor(() => client.schedule.getHandle(settlementScheduleId(cadence)).describe().catch(() => null), (d) => d !== null);
      expect(described!.action).toMatchObject({ type: 'startWorkflow', workflowType: 'settlementCycleWorkflow', taskQueue: 'bnpl', args: [{ cadence }] });
      expect(described!.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 0, end: 0, step: 1 }], minute: [{ start: 15, end: 15, step: 1 }] });
      expect(SETTLEMENT_SCHEDULE_CALENDARS[cadence]).toMatchObject({ hour: 0, minute: 15 });
    }
    await ensureSettlementSchedules(client);
  });
});

describe('reading settlements', () => {
  it('REST: newest first in keyset pages; another merchant\'s batch is a 404; GraphQL shows the batch and its lines', async () => {
    const shop = await liveShop('Reader Shop');
    for (const [i, day] of ['2026-11-03', '2026-11-10', '2026-11-17'].entries()) {
      await funded(shop, 10_000 + i, `${day}T12:00:00Z`, { livemode: true });
      await service().cut(shop.merchant.id, new Date(Date.parse(`${day}T12:00:00Z`) + 7 * 86_400_000));
    }
    const first = await get('/settlements?limit=2', shop);
    expect(first.status).toBe(200);
    const page1 = first.body.data as Array<{ id: string; batch: string }>;
    expect(page1.map((s) => s.batch)).toEqual(['2026-11-16..2026-11-22-USD', '2026-11-09..2026-11-15-USD']);
    const second = await get(`/settlements?limit=2&page=${first.body.next_cursor as string}`, shop);
    expect((second.body.data as Array<{ batch: string }>).map((s) => s.batch)).toEqual(['2026-11-02..2026-11-08-USD']);
    expect(second.body.next_cursor).toBeNull();
    expect((await get('/settlements?page=bogus', shop)).status).toBe(422);
    expect((await get('/settlements?limit=0', shop)).status).toBe(422);

    const other = await createMerchant(h, 'Nosy Shop');
    expect((await get(`/settlements/${page1[0]!.id}`, other)).status).toBe(404);
    expect((await get('/settlements/not-a-uuid', shop)).status).toBe(404);
    expect((await get('/settlements', other)).body).toEqual({ data: [], next_cursor: null });

    const read = await gql(h.service.url, '{ bnplMerchant { settlements(limit: 1) { settlements { batch grossCents mdrCents netCents periodStart periodEnd lines { kind amountCents mdrCents } } nextCursor } } }', dt(shop));
    expect(read.body.errors).toBeUndefined();
    const page = (read.body.data as { bnplMerchant: { settlements: { settlements: unknown[]; nextCursor: string | null } } }).bnplMerchant.settlements;
    expect(page.settlements).toEqual([
      { batch: '2026-11-16..2026-11-22-USD', grossCents: 10_002, mdrCents: 290, netCents: 9_712, periodStart: '2026-11-16', periodEnd: '2026-11-22', lines: [{ kind: 'SALE', amountCents: 10_002, mdrCents: 290 }] },
    ]);
    expect(page.nextCursor).toEqual(expect.any(String));
  });
});

describe('operator commands', () => {
  it('adjust adds a signed correction that the next cut covers; settle cuts the period; bad arguments exit 2', async () => {
    const shop = await liveShop('Operator Shop');
    await funded(shop, 10_000, '2026-11-24T08:00:00Z', { livemode: true });
    const adjusted = await runAdminJson(h, 'adjust', '--merchant', shop.merchant.id, '--amount-cents', '-1200', '--currency', 'USD', '--mode', 'live', '--reason', 'chargeback fee');
    expect(adjusted.code).toBe(0);
    expect(adjusted.body).toMatchObject({ amount_cents: -1_200, currency: 'USD', livemode: true, reason: 'chargeback fee' });
    await h.orm.em.fork().nativeUpdate(SettlementAdjustment, { id: adjusted.body.adjustment_id as string }, { createdAt: new Date('2026-11-25T00:00:00Z') });

    const settled = await runAdminJson(h, 'settle', '--merchant', shop.merchant.id, '--at', MONDAY.toISOString());
    expect(settled.code).toBe(0);
    expect(settled.body.settlements).toEqual([expect.objectContaining({ batch: '2026-11-23..2026-11-29-USD', gross_cents: 10_000, mdr_cents: 290, adjustments_cents: -1_200, net_cents: 8_510, status: 'pending' })]);
    expect((await runAdminJson(h, 'settle', '--merchant', shop.merchant.id, '--at', MONDAY.toISOString())).body).toEqual({ settlements: [] });

    for (const args of [
      ['adjust', '--merchant', shop.merchant.id, '--amount-cents', '1.5', '--currency', 'USD', '--mode', 'live', '--reason', 'x'],
      ['adjust', '--merchant', shop.merchant.id, '--amount-cents', '0', '--currency', 'USD', '--mode', 'live', '--reason', 'x'],
      ['adjust', '--merchant', shop.merchant.id, '--amount-cents', '5', '--currency', 'usd', '--mode', 'live', '--reason', 'x'],
      ['adjust', '--merchant', shop.merchant.id, '--amount-cents', '5', '--currency', 'USD', '--mode', 'both', '--reason', 'x'],
      ['settle', '--merchant', shop.merchant.id, '--at', 'yesterday'],
    ]) {
      expect((await runAdmin(h, ...args)).code).toBe(2);
    }
    expect((await runAdmin(h, 'settle', '--merchant', crypto.randomUUID())).code).toBe(1);
  });
});
