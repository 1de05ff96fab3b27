// Optional list filters (not in the spec, which lists per_page and page): `status` matches the status the API
// reports (deadline applied, so an overdue pending invoice is found under expired, never under pending) and
// `reference` the merchant's order id. Over real HTTP and GraphQL against real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { PaymentRequest, PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, gql, startHarness, type Harness, createRequest } from './helpers.js';

let h: Harness;
let key: string;
let otherKey: string;
/** Slugs by what they report now. */
const made: Record<string, string[]> = {};

beforeAll(async () => {
  h = await startHarness();
  const mine = await createMerchant(h, 'Filters');
  key = mine.key;
  const theirs = await createMerchant(h, 'Other shop');
  otherKey = theirs.key;
  const principal = { accountId: mine.accountId, apiKeyId: 0 };
  const service = () => new PaymentRequestService(h.orm.em.fork());
  const pay = (slug: string, amount: string) =>
    new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: randomBytes(32).toString('hex'), index: 0, amount, confirmations: 2, to: { slug } });
  const invoice = (reference: string) => createRequest(service(), principal, { asset_id: 1, title: reference, amount: '1', reference });
  const add = (status: string, request: PaymentRequest) => (made[status] ??= []).push(request.slug);

  add('pending', await invoice('ord-1'));
  const partial = await invoice('ord-2');
  await pay(partial.slug, '0.4');
  add('partial', partial);
  const paid = await invoice('ord-3');
  await pay(paid.slug, '1');
  add('paid', paid);
  const overpaid = await invoice('ord-4');
  await pay(overpaid.slug, '1.5');
  add('overpaid', overpaid);
  const cancelled = await invoice('ord-5');
  await service().cancel(principal, cancelled.id);
  add('cancelled', cancelled);
  // Past the deadline but never swept: the stored status is still pending / partial.
  const overduePending = await invoice('ord-6');
  const overduePartial = await invoice('ord-7');
  await pay(overduePartial.slug, '0.1');
  await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: { $in: [overduePending.id, overduePartial.id] } }, { expiresAt: new Date(Date.now() - 1000) });
  add('expired', overduePending);
  add('expired', overduePartial);
  // Stored expired (the workflow ran).
  const stored = await invoice('ord-8');
  await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: stored.id }, { expiresAt: new Date(Date.now() - 1000) });
  await service().expireIfDue(stored.id);
  add('expired', stored);
  // A donation link never expires; it reports pending until paid. Its reference is shared with an invoice.
  add('pending', await createRequest(service(), principal, { type: 'donation', asset_id: 2, title: 'Tips', reference: 'ord-1' }));
  // Another account's pending invoice with the same reference must never show up.
  await createRequest(new PaymentRequestService(h.orm.em.fork()), { accountId: theirs.accountId, apiKeyId: 0 }, { asset_id: 1, title: 'x', amount: '1', reference: 'ord-1' });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

interface Page {
  data: Array<{ id: string; status: string; reference: string | null }>;
  current_page: number;
  per_page: number;
  total: number;
}

async function list(query: string, apiKey = key): Promise<{ status: number; body: Page & { message?: string; errors?: Record<string, string[]> } }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests?${query}`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as Page };
}

const sorted = (values: string[]) => [...values].sort();

describe('list filters', () => {
  it('without filters the list is the spec list: every request of the caller', async () => {
    const { body } = await list('per_page=100');
    expect(body.total).toBe(Object.values(made).flat().length);
    expect(body.total).toBe(9);
  });

  it.each(['pending', 'partial', 'paid', 'overpaid', 'expired', 'cancelled'])('status=%s finds exactly the requests that report it', async (status) => {
    const { status: code, body } = await list(`status=${status}&per_page=100`);
    expect(code).toBe(200);
    expect(sorted(body.data.map((r) => r.id))).toEqual(sorted(made[status]!));
    expect(body.data.every((r) => r.status === status)).toBe(true);
    expect(body.total).toBe(made[status]!.length);
  });

  it('reference matches exactly, only among the caller\'s requests, and combines with status and paging', async () => {
    const byReference = await list('reference=ord-1');
    expect(byReference.body.data.map((r) => r.reference)).toEqual(['ord-1', 'ord-1']);
    expect(byReference.body.total).toBe(2);
    expect((await list('reference=ord')).body.total).toBe(0);
    const combined = await list('reference=ord-7&status=expired');
    expect(combined.body.data.map((r) => [r.reference, r.status])).toEqual([['ord-7', 'expired']]);
    const paged = await list('status=expired&per_page=1&page=2');
    expect(paged.body).toMatchObject({ current_page: 2, per_page: 1, total: 3 });
    expect(paged.body.data).toHaveLength(1);
    expect((await list('reference=ord-1', otherKey)).body.total).toBe(1);
  });

  it('an unknown status, an empty or over-long reference, or a repeated parameter is a 422 on that field', async () => {
    for (const [query, field] of [['status=settled', 'status'], ['status=PAID', 'status'], ['reference=', 'reference'], [`reference=${'r'.repeat(129)}`, 'reference'], ['status=paid&status=pending', 'status']] as const) {
      const { status, body } = await list(query);
      expect(status).toBe(422);
      expect(body.message).toBe('The given data was invalid.');
      expect(Object.keys(body.errors ?? {})).toEqual([field]);
      expect(body.errors![field]!.every((message) => typeof message === 'string' && message.length > 0)).toBe(true);
    }
  });

  it('GraphQL paymentRequests takes the same filters', async () => {
    const { body } = await gql(
      h.service.url,
      '{ paymentRequests(perPage: 100, status: EXPIRED) { total data { slug status } } pending: paymentRequests(status: PENDING, reference: "ord-1") { total data { slug reference } } }',
      { authorization: `Bearer ${key}` },
    );
    expect(body.errors).toBeUndefined();
    const data = body.data as { paymentRequests: { total: number; data: Array<{ slug: string; status: string }> }; pending: { total: number; data: Array<{ slug: string }> } };
    expect(sorted(data.paymentRequests.data.map((r) => r.slug))).toEqual(sorted(made.expired!));
    expect(data.paymentRequests.data.every((r) => r.status === 'EXPIRED')).toBe(true);
    expect(data.pending.total).toBe(2);
  });
});

describe('list order', () => {
  it("one account's page, newest first, is read from the (account_id, created_at, id) index with no sort", async () => {
    const [row] = await h.orm.em.getConnection().execute<Array<{ account_id: number }>>(`select "account_id" from "payment_requests" limit 1`);
    const accountId = row!.account_id;
    const plan = await h.orm.em.fork().transactional(async (tx) => {
      // The table is tiny here, where a sequential scan wins; with it ruled out the planner still chooses freely
      // between the indexes and a sort.
      await tx.getConnection().execute('set local enable_seqscan = off', [], 'run', tx.getTransactionContext());
      const rows = await tx
        .getConnection()
        .execute<Array<{ 'QUERY PLAN': string }>>(
          `explain select * from "payment_requests" where "account_id" = ? order by "created_at" desc, "id" desc limit 25`,
          [accountId],
          'all',
          tx.getTransactionContext(),
        );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan Backward using payment_requests_account_id_created_at_id_index/);
    expect(plan).not.toMatch(/Sort/);
  });
});
