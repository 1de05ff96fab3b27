// Refunds over HTTP on the real app and database (spec "Refund"; README Decisions "Refunds"), processed by bnpl's real
// worker on the test run's Temporal dev server: create with its rules (principal cap under 20 concurrent requests,
// refundable statuses, Idempotency-Key), the list with filters and keyset pages, GraphQL, and processing that reduces
// the shopper's last installments first or fails on the documented test e-mail.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { createLogger } from '@tributary/kit';
import { IDEMPOTENT_RETRY_BURST, testTemporalAddress, waitFor } from '@tributary/kit/testing';
import { refundWorkflowId } from '@tributary/workflows';
import { Installment, Loan } from '../src/modules/loans/index.js';
import { REFUND_REFUSED_REASON, Refund, UNKNOWN_LOAN_MESSAGE, exceedsPrincipalMessage, notRefundableMessage } from '../src/modules/refunds/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { checkoutLoan, createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let worker: RunningWorker;
let shop: TestMerchant;
let other: TestMerchant;
let temporal: Connection;

beforeAll(async () => {
  temporal = await Connection.connect({ address: testTemporalAddress() });
  h = await startHarness();
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'bnpl', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: testTemporalAddress(), TEMPORAL_NAMESPACE: 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: [] },
  });
  shop = await createMerchant(h, 'Refund Shop');
  other = await createMerchant(h, 'Other Shop');
}, 60_000);
afterAll(async () => {
  await worker?.shutdown();
  await temporal?.close();
  await h?.close();
});

const dt = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });

async function call(method: string, path: string, merchant: TestMerchant, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.service.url}/api/v1/merchant${path}`, {
    method,
    headers: { ...dt(merchant), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

const refund = (merchant: TestMerchant, body: unknown, headers: Record<string, string> = {}) => call('POST', '/refunds', merchant, body, headers);
const stored = (id: string) => h.orm.em.fork().findOneOrFail(Refund, { id });
const countRefunds = (loanId: string) => h.orm.em.fork().count(Refund, { loan: loanId });
const installmentsOf = async (loanId: string) => (await h.orm.em.fork().find(Installment, { loan: loanId }, { orderBy: { installmentNumber: 'asc' } })).map((i) => i.amountCents);
const settled = (id: string) => waitFor(() => stored(id), (r) => r.status === 'processed' || r.status === 'failed');

describe('POST /api/v1/merchant/refunds', () => {
  it('201 with the refund, status requested; the workflow refund-<id> processes it, cutting the last installments first', async () => {
    const loan = await checkoutLoan(h, shop, { amountCents: 12_000 });
    expect(await installmentsOf(loan.id)).toEqual([3_000, 3_000, 3_000, 3_000]);
    const res = await refund(shop, { loan_id: loan.id, amount_cents: 4_500, reason: 'Returned one lamp' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['amount_cents', 'created_at', 'currency', 'failure_reason', 'id', 'livemode', 'loan_id', 'processed_at', 'reason', 'returned_to_shopper_cents', 'status', 'updated_at'].sort(),
    );
    expect(res.body).toMatchObject({ loan_id: loan.id, amount_cents: 4_500, currency: 'USD', reason: 'Returned one lamp', status: 'requested', failure_reason: null, livemode: false, processed_at: null });

    const done = await settled(res.body.id as string);
    expect(done).toMatchObject({ status: 'processed', returnedToShopperCents: 0, failureReason: null });
    expect(await installmentsOf(loan.id)).toEqual([3_000, 3_000, 1_500, 0]);
    const read = await call('GET', `/refunds/${res.body.id as string}`, shop);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: res.body.id, status: 'processed', processed_at: expect.any(String) });
    const workflow = await new Client({ connection: temporal }).workflow.getHandle(refundWorkflowId(res.body.id as string)).result();
    expect(workflow).toEqual({ status: 'processed', failureReason: null });
  });

  it('returns what exceeds the unpaid installments to the shopper', async () => {
    const loan = await checkoutLoan(h, shop, { amountCents: 12_000 });
    await h.orm.em.fork().nativeUpdate(Installment, { loan: loan.id, installmentNumber: { $lte: 3 } }, { paidAt: new Date() });
    const res = await refund(shop, { loan_id: loan.id, amount_cents: 12_000, reason: 'Whole order returned' });
    expect(res.status).toBe(201);
    expect(await settled(res.body.id as string)).toMatchObject({ status: 'processed', returnedToShopperCents: 9_000 });
    expect(await installmentsOf(loan.id)).toEqual([3_000, 3_000, 3_000, 0]);
  });

  it('a refund the test payment method refuses fails with its reason, changes nothing owed, and no longer counts', async () => {
    const loan = await checkoutLoan(h, shop, { amountCents: 12_000, email: 'jo+refund_fails@example.com' });
    const res = await refund(shop, { loan_id: loan.id, amount_cents: 12_000, reason: 'Returned' });
    expect(await settled(res.body.id as string)).toMatchObject({ status: 'failed', failureReason: REFUND_REFUSED_REASON, processedAt: null });
    expect(await installmentsOf(loan.id)).toEqual([3_000, 3_000, 3_000, 3_000]);
    // The failed refund does not count against the principal: the whole amount can be asked for again.
    expect((await refund(shop, { loan_id: loan.id, amount_cents: 12_000, reason: 'Returned, second try' })).status).toBe(201);
  });

  it('20 concurrent refunds of a tenth of the principal: exactly 10 are accepted, the others refused, the sum is the principal', async () => {
    const loan = await checkoutLoan(h, shop, { amountCents: 10_000 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => refund(shop, { loan_id: loan.id, amount_cents: 1_000, reason: `part ${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(10);
    for (const answer of refused) expect(answer.body).toEqual({ error: expect.objectContaining({ code: 'rule_violation', message: exceedsPrincipalMessage(0) }) });
    const refunds = await h.orm.em.fork().find(Refund, { loan: loan.id });
    expect(refunds.reduce((sum, r) => sum + r.amountCents, 0)).toBe(10_000);
  });

  it('refuses more than what is still refundable, naming what is left', async () => {
    const loan = await checkoutLoan(h, shop, { amountCents: 12_000 });
    expect((await refund(shop, { loan_id: loan.id, amount_cents: 10_000, reason: 'most' })).status).toBe(201);
    const res = await refund(shop, { loan_id: loan.id, amount_cents: 2_001, reason: 'too much' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: { code: 'rule_violation', message: exceedsPrincipalMessage(2_000), fields: { amount_cents: [exceedsPrincipalMessage(2_000)] } } });
    expect(await countRefunds(loan.id)).toBe(1);
  });

  it('422 naming every bad field, for another merchant\'s or an unknown loan too; nothing is stored', async () => {
    const loan = await checkoutLoan(h, shop);
    const bad = await refund(shop, { loan_id: 'nope', amount_cents: 0, reason: '' });
    expect(bad.status).toBe(422);
    expect(Object.keys((bad.body.error as { fields: object }).fields).sort()).toEqual(['amount_cents', 'loan_id', 'reason']);
    for (const body of [{ amount_cents: 1.5, reason: 'x', loan_id: loan.id }, { amount_cents: '100', reason: 'x', loan_id: loan.id }, { amount_cents: 100, reason: 'x'.repeat(501), loan_id: loan.id }]) {
      expect((await refund(shop, body)).status).toBe(422);
    }
    expect((await refund(shop, [1, 2])).body).toEqual({ error: expect.objectContaining({ code: 'validation_failed', fields: { body: ['Must be a JSON object.'] } }) });
    const foreign = await refund(other, { loan_id: loan.id, amount_cents: 100, reason: 'not mine' });
    expect(foreign.status).toBe(422);
    expect((foreign.body.error as { fields: object }).fields).toEqual({ loan_id: [UNKNOWN_LOAN_MESSAGE] });
    expect((await refund(shop, { loan_id: crypto.randomUUID(), amount_cents: 100, reason: 'unknown' })).status).toBe(422);
    expect(await countRefunds(loan.id)).toBe(0);
  });

  it('409 for a loan in a status that cannot be refunded (cancelled, defaulted, written_off, pending)', async () => {
    for (const status of ['cancelled', 'defaulted', 'written_off', 'pending'] as const) {
      const loan = await checkoutLoan(h, shop);
      await h.orm.em.fork().nativeUpdate(Loan, { id: loan.id }, { status });
      const res = await refund(shop, { loan_id: loan.id, amount_cents: 100, reason: 'x' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: { code: 'conflict', message: notRefundableMessage(status) } });
    }
  });

  it('Idempotency-Key: the same key and body return the first refund; another body under the key is a 422', async () => {
    const loan = await checkoutLoan(h, shop);
    const body = { loan_id: loan.id, amount_cents: 700, reason: 'scratched' };
    const first = await refund(shop, body, { 'idempotency-key': 'refund-key-1' });
    const again = await refund(shop, body, { 'idempotency-key': 'refund-key-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect((await refund(shop, { ...body, amount_cents: 701 }, { 'idempotency-key': 'refund-key-1' })).status).toBe(422);
    // Keys are per merchant: the other merchant's same key is its own.
    expect(await countRefunds(loan.id)).toBe(1);
  });

  it('concurrent retries with one Idempotency-Key make one refund, and all answer with it', async () => {
    const loan = await checkoutLoan(h, shop);
    const body = { loan_id: loan.id, amount_cents: 300, reason: 'retried' };
    const answers = await Promise.all(Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => refund(shop, body, { 'idempotency-key': 'refund-burst' })));
    expect(answers.map((a) => a.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await countRefunds(loan.id)).toBe(1);
  });

  it('needs the dashboard token', async () => {
    const res = await fetch(`${h.service.url}/api/v1/merchant/refunds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/v1/merchant/refunds and /refunds/{id}', () => {
  it('newest first in keyset pages that neither skip nor repeat when refunds arrive between pages; filters by loan and status', async () => {
    const lister = await createMerchant(h, 'List Shop');
    const loanA = await checkoutLoan(h, lister, { amountCents: 50_000 });
    const loanB = await checkoutLoan(h, lister, { amountCents: 50_000 });
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) made.push((await refund(lister, { loan_id: i % 2 ? loanB.id : loanA.id, amount_cents: 100 + i, reason: `r${i}` })).body.id as string);
    const first = await call('GET', '/refunds?limit=2', lister);
    expect(first.status).toBe(200);
    expect((first.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([made[4], made[3]]);
    // A refund arriving now sorts first and never shifts the next page.
    await refund(lister, { loan_id: loanA.id, amount_cents: 50, reason: 'late' });
    const second = await call('GET', `/refunds?limit=2&page=${first.body.next_cursor as string}`, lister);
    expect((second.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([made[2], made[1]]);
    const third = await call('GET', `/refunds?limit=2&page=${second.body.next_cursor as string}`, lister);
    expect((third.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([made[0]]);
    expect(third.body.next_cursor).toBeNull();

    const ofB = await call('GET', `/refunds?loan_id=${loanB.id}`, lister);
    expect((ofB.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([made[3], made[1]]);
    await Promise.all(made.map(settled));
    const processed = await call('GET', '/refunds?status=processed,failed&limit=100', lister);
    expect((processed.body.data as unknown[]).length).toBeGreaterThanOrEqual(5);
    expect((await call('GET', '/refunds', other)).body).toEqual({ data: [], next_cursor: null });
  });

  it('422 on an unknown status, a bad cursor, limit or loan_id; 404 for another merchant\'s or a malformed id', async () => {
    for (const query of ['status=done', 'page=not-a-cursor', 'page=' + Buffer.from('{"t":"x","id":"y"}').toString('base64url'), 'limit=0', 'limit=101', 'loan_id=7']) {
      const res = await call('GET', `/refunds?${query}`, shop);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'validation_failed' });
    }
    const loan = await checkoutLoan(h, shop);
    const mine = await refund(shop, { loan_id: loan.id, amount_cents: 100, reason: 'x' });
    expect((await call('GET', `/refunds/${mine.body.id as string}`, other)).status).toBe(404);
    expect((await call('GET', '/refunds/not-a-uuid', shop)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('createBnplRefund, bnplMerchant.refunds and BnplLoan.refunds answer from the same domain', async () => {
    const loan = await checkoutLoan(h, shop);
    const created = await gql(h.service.url, 'mutation($l: ID!) { createBnplRefund(loanId: $l, amountCents: 250, reason: "dent", idempotencyKey: "gql-1") { id loanId amountCents status } }', dt(shop), { l: loan.id });
    expect(created.body.errors).toBeUndefined();
    const made = (created.body.data as { createBnplRefund: { id: string; loanId: string; status: string } }).createBnplRefund;
    expect(made).toMatchObject({ loanId: loan.id, amountCents: 250, status: 'REQUESTED' });
    await settled(made.id);
    const read = await gql(
      h.service.url,
      'query($l: ID) { bnplMerchant { refunds(loanId: $l, status: [PROCESSED]) { refunds { id status processedAt } nextCursor } loans(first: 10) { id refunds { id } } } }',
      dt(shop),
      { l: loan.id },
    );
    expect(read.body.errors).toBeUndefined();
    const merchant = (read.body.data as { bnplMerchant: { refunds: { refunds: Array<{ id: string; status: string }>; nextCursor: string | null }; loans: Array<{ id: string; refunds: Array<{ id: string }> }> } }).bnplMerchant;
    expect(merchant.refunds).toEqual({ refunds: [{ id: made.id, status: 'PROCESSED', processedAt: expect.any(String) }], nextCursor: null });
    expect(merchant.loans.find((l) => l.id === loan.id)!.refunds).toEqual([{ id: made.id }]);

    const over = await gql(h.service.url, 'mutation($l: ID!) { createBnplRefund(loanId: $l, amountCents: 999999, reason: "x") { id } }', dt(shop), { l: loan.id });
    expect(over.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
