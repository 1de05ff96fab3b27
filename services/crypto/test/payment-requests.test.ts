// The payment request endpoints over real HTTP against real PostgreSQL, for what the spec's tables do not fix (those are
// walked line by line in spec-conformance.test.ts): the Location header and the stored request behind it, fresh
// addresses under concurrency and across accounts, and the GraphQL side of the same domain.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { deriveReceiveAddress, testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;
let merchant: TestMerchant;
let other: TestMerchant;
const PUBLIC_HOOK = 'https://93.184.216.34/hooks/crypto';
const PUBLIC_REDIRECT = 'https://93.184.216.34/thanks';

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  merchant = await createMerchant(h, 'Merchant A');
  other = await createMerchant(h, 'Merchant B');
});
afterAll(async () => {
  await h?.close();
});

const headers = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' });
async function call(method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: key ? headers(key) : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read by path in assertions
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null, location: res.headers.get('location') };
}
const create = (body: unknown, key = merchant.key) => call('POST', '/api/merchant/v1/payment-requests', key, body);
const idFrom = (location: string | null) => Number(/\/api\/merchant\/v1\/payment-requests\/(\d+)$/.exec(location ?? '')![1]);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /api/merchant/v1/payment-requests', () => {
  it('creates an invoice: 201 {payment_request} with every field in the spec order, Location with the internal id', async () => {
    const before = Date.now();
    const res = await create({
      asset_id: 1,
      title: 'Order #1001',
      amount: '0.00150000',
      description: 'Two mugs',
      reference: 'order-1001',
      ttl_minutes: 30,
      webhook_url: PUBLIC_HOOK,
      redirect_url: PUBLIC_REDIRECT,
    });
    expect(res.status).toBe(201);
    const object = res.body!.payment_request;
    expect(Object.keys(res.body!)).toEqual(['payment_request']);
    expect(Object.keys(object)).toEqual([
      'id', 'type', 'title', 'description', 'status', 'asset', 'chain', 'address', 'amount_requested', 'amount_paid',
      'amount_outstanding', 'expires_at', 'paid_at', 'redirect_url', 'reference', 'webhook_url', 'created_at',
    ]);
    expect(object).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
      type: 'invoice',
      title: 'Order #1001',
      description: 'Two mugs',
      status: 'pending',
      asset: 'BTC',
      chain: 'bitcoin',
      address: expect.stringMatching(/^tb1q[02-9ac-hj-np-z]+$/),
      amount_requested: '0.0015',
      amount_paid: '0',
      amount_outstanding: '0.0015',
      expires_at: expect.stringMatching(ISO),
      paid_at: null,
      redirect_url: PUBLIC_REDIRECT,
      reference: 'order-1001',
      webhook_url: PUBLIC_HOOK,
      created_at: expect.stringMatching(ISO),
    });
    const ttl = Date.parse(object.expires_at) - Date.parse(object.created_at);
    expect(ttl).toBe(30 * 60_000);
    expect(Date.parse(object.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.location).toMatch(/^\/api\/merchant\/v1\/payment-requests\/\d+$/);
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { id: idFrom(res.location) });
    expect(stored.slug).toBe(object.id);
    expect(stored.address).toBe(deriveReceiveAddress('testnet', 'BTC', testMnemonicAccountKeys(merchant.accountId).BTC, stored.addressIndex));
  });

  it('defaults: type invoice, ttl 60 minutes, optional fields null', async () => {
    const res = await create({ asset_id: 2, title: 'Defaults', amount: '1' });
    expect(res.status).toBe(201);
    const object = res.body!.payment_request;
    expect(object).toMatchObject({ type: 'invoice', asset: 'ETH', chain: 'ethereum', description: null, reference: null, webhook_url: null, redirect_url: null });
    expect(object.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(Date.parse(object.expires_at) - Date.parse(object.created_at)).toBe(60 * 60_000);
  });

  it('every request gets its own fresh address; concurrent creates never share one', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create({ asset_id: 3, title: `LTC ${i}`, amount: '0.1' })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const addresses = results.map((r) => r.body!.payment_request.address as string);
    expect(new Set(addresses).size).toBe(12);
    for (const address of addresses) expect(address).toMatch(/^tltc1q/);
    const slugs = results.map((r) => r.body!.payment_request.id as string);
    expect(new Set(slugs).size).toBe(12);
  });
});

describe('receive addresses across accounts', () => {
  it('no two requests share (chain, address), whichever accounts made them, created concurrently', async () => {
    const shops = await Promise.all([1, 2, 3].map((i) => createMerchant(h, `Shop ${i}`)));
    const creates = shops.flatMap((shop) => [1, 2, 3, 4].flatMap((assetId) => Array.from({ length: 3 }, (_, i) => create({ asset_id: assetId, title: `Tip ${i}`, type: 'donation' }, shop.key))));
    const results = await Promise.all(creates);
    expect(results.map((r) => r.status)).toEqual(Array(36).fill(201));
    // Every request in this database, these and the other tests' (accounts A, B, …): one (chain, address) each.
    const rows = await h.orm.em.fork().find(PaymentRequest, {}, { populate: ['asset'] });
    const pairs = rows.map((row) => `${row.chain}:${row.address}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const row of rows) {
      expect({ chain: row.chain, conflict: row.addressConflict }).toEqual({ chain: row.asset.chain, conflict: false });
      // Derived from the key of the account that made it (its own test keys), never another account's.
      expect(row.address).toBe(deriveReceiveAddress('testnet', row.asset.code, testMnemonicAccountKeys(row.account.id)[row.asset.code], row.addressIndex));
    }
  });
});

describe('GraphQL', () => {
  const fields = 'id slug type title status asset chain address amountRequested amountPaid amountOutstanding expiresAt paidAt reference createdAt';
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });

  it('creates, lists, reads and cancels through the same domain rules; Decimal is a string', async () => {
    const created = await gql(url, `mutation($input: CreatePaymentRequestInput!) { createPaymentRequest(input: $input) { ${fields} } }`, auth(merchant.key), {
      input: { assetId: 1, title: 'GQL', amount: '0.25', reference: 'g-1' },
    });
    expect(created.body.errors).toBeUndefined();
    const request = created.body.data!.createPaymentRequest as Record<string, unknown>;
    expect(request).toMatchObject({ type: 'INVOICE', status: 'PENDING', asset: 'BTC', chain: 'bitcoin', amountRequested: '0.25', amountPaid: '0', amountOutstanding: '0.25', reference: 'g-1' });
    const rest = await call('GET', `/api/merchant/v1/payment-requests/${request.id as string}`, merchant.key);
    expect(rest.body!.payment_request.id).toBe(request.slug);

    const one = await gql(url, `query($id: ID!) { paymentRequest(id: $id) { id slug } }`, auth(merchant.key), { id: request.id });
    expect(one.body.data!.paymentRequest).toEqual({ id: request.id, slug: request.slug });
    const hidden = await gql(url, `query($id: ID!) { paymentRequest(id: $id) { id } }`, auth(other.key), { id: request.id });
    expect(hidden.body.data!.paymentRequest).toBeNull();
    expect(hidden.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    const page = await gql(url, '{ paymentRequests(perPage: 1) { data { id } currentPage perPage total } }', auth(merchant.key));
    expect(page.body.data!.paymentRequests).toMatchObject({ data: [{ id: request.id }], currentPage: 1, perPage: 1 });

    const cancelled = await gql(url, `mutation($id: ID!) { cancelPaymentRequest(id: $id) { status } }`, auth(merchant.key), { id: request.id });
    expect(cancelled.body.data!.cancelPaymentRequest).toEqual({ status: 'CANCELLED' });
  });

  it('amountExcess flags what an overpaid invoice received beyond its amount ("0" otherwise, null on a donation link)', async () => {
    const mutation = `mutation($input: CreatePaymentRequestInput!) { createPaymentRequest(input: $input) { id slug } }`;
    const invoice = (await gql(url, mutation, auth(merchant.key), { input: { assetId: 1, title: 'Excess', amount: '0.1' } })).body.data!.createPaymentRequest as { id: string; slug: string };
    const donation = (await gql(url, mutation, auth(merchant.key), { input: { assetId: 1, title: 'Tips', type: 'DONATION' } })).body.data!.createPaymentRequest as { id: string; slug: string };
    const read = async (id: string) => (await gql(url, `query($id: ID!) { paymentRequest(id: $id) { status amountOutstanding amountExcess } }`, auth(merchant.key), { id })).body.data!.paymentRequest;
    expect(await read(invoice.id)).toEqual({ status: 'PENDING', amountOutstanding: '0.1', amountExcess: '0' });
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: 'ex01', index: 0, amount: '0.12345678', confirmations: 2, to: { slug: invoice.slug } });
    expect(await read(invoice.id)).toEqual({ status: 'OVERPAID', amountOutstanding: '0', amountExcess: '0.02345678' });
    // A settled request refuses the cancel as REST does: the spec's message, the status that refuses it in fields.
    const refused = await gql(url, `mutation($id: ID!) { cancelPaymentRequest(id: $id) { status } }`, auth(merchant.key), { id: invoice.id });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'A settled request cannot be cancelled.',
      extensions: { code: 'BAD_USER_INPUT', fields: { status: ['The request is overpaid; only a pending, partial or expired request can be cancelled.'] } },
    });
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: 'ex02', index: 0, amount: '1', confirmations: 2, to: { slug: donation.slug } });
    expect(await read(donation.id)).toMatchObject({ amountOutstanding: null, amountExcess: null });
  });

  it('payments lists what reached the address, oldest first, with its confirmations and whether it counts', async () => {
    const mutation = `mutation($input: CreatePaymentRequestInput!) { createPaymentRequest(input: $input) { id slug } }`;
    const invoice = (await gql(url, mutation, auth(merchant.key), { input: { assetId: 1, title: 'Paid twice', amount: '1' } })).body.data!.createPaymentRequest as { id: string; slug: string };
    const record = (txid: string, amount: string, confirmations: number) =>
      new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid, index: 1, amount, confirmations, to: { slug: invoice.slug } });
    await record('cafe01', '0.4', 2);
    await record('cafe02', '0.6', 1); // below BTC's threshold of 2: recorded, not counted
    const query = `query($id: ID!) { paymentRequest(id: $id) { status amountPaid payments { chain txid outputIndex amount confirmations counted receivedAt countedAt } } }`;
    const { body } = await gql(url, query, auth(merchant.key), { id: invoice.id });
    expect(body.errors).toBeUndefined();
    const read = body.data!.paymentRequest as { status: string; amountPaid: string; payments: Array<Record<string, unknown>> };
    expect(read.status).toBe('PARTIAL');
    expect(read.amountPaid).toBe('0.4');
    expect(read.payments).toEqual([
      { chain: 'bitcoin', txid: 'cafe01', outputIndex: 1, amount: '0.4', confirmations: 2, counted: true, receivedAt: expect.stringMatching(/Z$/), countedAt: expect.stringMatching(/Z$/) },
      { chain: 'bitcoin', txid: 'cafe02', outputIndex: 1, amount: '0.6', confirmations: 1, counted: false, receivedAt: expect.stringMatching(/Z$/), countedAt: null },
    ]);
    // Another account cannot reach them: the request itself is NOT_FOUND for it.
    const theirs = await gql(url, query, auth(other.key), { id: invoice.id });
    expect(theirs.body.data!.paymentRequest).toBeNull();
  });

  it('validation failures are BAD_USER_INPUT with the REST field names; numbers are refused as Decimal', async () => {
    const bad = await gql(url, `mutation { createPaymentRequest(input: { assetId: 1, title: "x", type: DONATION, amount: "1" }) { id } }`, auth(merchant.key));
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { amount: ['A donation link has no amount; omit this field.'] } });
    const numeric = await gql(url, `mutation { createPaymentRequest(input: { assetId: 1, title: "x", amount: 1 }) { id } }`, auth(merchant.key));
    expect(numeric.body.errors?.[0]?.message).toMatch(/Decimal values are strings/);
  });

  it('requires the key', async () => {
    const res = await gql(url, '{ paymentRequests { total } }', {});
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('_entities resolves only the caller\'s own requests', async () => {
    const made = await create({ asset_id: 1, title: 'entity', amount: '1' });
    const id = String(idFrom(made.location));
    const query = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on PaymentRequest { id slug } } }`;
    const mine = await gql(url, query, auth(merchant.key), { reps: [{ __typename: 'PaymentRequest', id }] });
    expect(mine.body.data!._entities).toEqual([{ id, slug: made.body!.payment_request.id }]);
    const theirs = await gql(url, query, auth(other.key), { reps: [{ __typename: 'PaymentRequest', id }] });
    expect(theirs.body.data!._entities).toEqual([null]);
  });
});
