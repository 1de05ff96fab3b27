// The payment request endpoints over real HTTP against real PostgreSQL: exact bodies and status codes.
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
    expect(stored.address).toBe(deriveReceiveAddress('BTC', testMnemonicAccountKeys(merchant.accountId).BTC, stored.addressIndex));
  });

  it('defaults: type invoice, ttl 60 minutes, optional fields null', async () => {
    const res = await create({ asset_id: 2, title: 'Defaults', amount: '1' });
    expect(res.status).toBe(201);
    const object = res.body!.payment_request;
    expect(object).toMatchObject({ type: 'invoice', asset: 'ETH', chain: 'ethereum', description: null, reference: null, webhook_url: null, redirect_url: null });
    expect(object.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(Date.parse(object.expires_at) - Date.parse(object.created_at)).toBe(60 * 60_000);
  });

  it('creates a donation link: no amount, no deadline, ttl_minutes ignored', async () => {
    const res = await create({ asset_id: 4, title: 'Tip jar', type: 'donation', ttl_minutes: 5 });
    expect(res.status).toBe(201);
    expect(res.body!.payment_request).toMatchObject({
      type: 'donation', asset: 'MATIC', chain: 'polygon', status: 'pending', amount_requested: null, amount_paid: '0', amount_outstanding: null, expires_at: null,
    });
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

  const invalid: Array<[string, unknown, Record<string, string[]>]> = [
    ['missing asset_id and title, invoice without amount', {}, { asset_id: ['This field is required.'], title: ['This field is required.'], amount: ['An invoice requires an amount.'] }],
    ['asset_id as a string', { asset_id: '1', title: 't', amount: '1' }, { asset_id: ['Invalid input: expected number, received string'] }],
    ['unknown asset_id', { asset_id: 99, title: 't', amount: '1' }, { asset_id: ['The selected asset id is invalid.'] }],
    ['title too long', { asset_id: 1, title: 'x'.repeat(192), amount: '1' }, { title: ['Must be at most 191 characters.'] }],
    ['amount as a JSON number', { asset_id: 1, title: 't', amount: 0.5 }, { amount: ['The amount must be a decimal string such as "0.5", not a JSON number.'] }],
    ['amount with exponent', { asset_id: 1, title: 't', amount: '1e-3' }, { amount: ['The amount must be a plain decimal string such as "0.5": digits with an optional fractional part, no sign, exponent, spaces or thousands separators.'] }],
    ['amount zero', { asset_id: 1, title: 't', amount: '0' }, { amount: ['The amount must be greater than zero.'] }],
    ['amount finer than BTC', { asset_id: 1, title: 't', amount: '0.000000001' }, { amount: ['The amount must not have more than 8 decimal places (the precision of BTC).'] }],
    ['donation with an amount', { asset_id: 1, title: 't', type: 'donation', amount: '1' }, { amount: ['A donation link has no amount; omit this field.'] }],
    ['unknown type', { asset_id: 1, title: 't', type: 'gift', amount: '1' }, { type: ['Invalid option: expected one of "invoice"|"donation"'] }],
    ['description too long', { asset_id: 1, title: 't', amount: '1', description: 'd'.repeat(2001) }, { description: ['Must be at most 2000 characters.'] }],
    ['reference too long', { asset_id: 1, title: 't', amount: '1', reference: 'r'.repeat(129) }, { reference: ['Must be at most 128 characters.'] }],
    ['ttl_minutes 0', { asset_id: 1, title: 't', amount: '1', ttl_minutes: 0 }, { ttl_minutes: ['Must be between 1 and 10080.'] }],
    ['ttl_minutes 10081', { asset_id: 1, title: 't', amount: '1', ttl_minutes: 10081 }, { ttl_minutes: ['Must be between 1 and 10080.'] }],
    ['webhook_url over http', { asset_id: 1, title: 't', amount: '1', webhook_url: 'http://93.184.216.34/h' }, { webhook_url: ['Must be an https URL.'] }],
    ['webhook_url on loopback', { asset_id: 1, title: 't', amount: '1', webhook_url: 'https://127.0.0.1/h' }, { webhook_url: [expect.stringMatching(/^Must resolve to a public address/) as unknown as string] }],
    ['redirect_url private', { asset_id: 1, title: 't', amount: '1', redirect_url: 'https://10.1.2.3/r' }, { redirect_url: [expect.stringMatching(/^Must resolve to a public address/) as unknown as string] }],
    ['redirect_url link-local', { asset_id: 1, title: 't', amount: '1', redirect_url: 'https://169.254.169.254/r' }, { redirect_url: [expect.stringMatching(/^Must resolve to a public address/) as unknown as string] }],
  ];
  it.each(invalid)('422 {message, errors}: %s', async (_name, body, errors) => {
    const res = await create(body);
    expect(res).toEqual({ status: 422, body: { message: 'The given data was invalid.', errors }, location: null });
  });

  it('ttl boundaries 1 and 10080 are accepted', async () => {
    for (const ttl of [1, 10080]) expect((await create({ asset_id: 1, title: 't', amount: '1', ttl_minutes: ttl })).status).toBe(201);
  });

  it('malformed JSON is a 400 in the spec format, a missing key a 401', async () => {
    expect(await create('{"asset_id":')).toEqual({ status: 400, body: { message: 'The request body is not valid JSON.' }, location: null });
    expect((await call('POST', '/api/merchant/v1/payment-requests', null, { asset_id: 1 })).body).toEqual({ message: 'Invalid API credentials.' });
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
      expect(row.address).toBe(deriveReceiveAddress(row.asset.code, testMnemonicAccountKeys(row.account.id)[row.asset.code], row.addressIndex));
    }
  });
});

describe('GET /api/merchant/v1/payment-requests', () => {
  it('paginates the caller\'s own requests newest first', async () => {
    const fresh = await createMerchant(h, 'Lister');
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) made.push((await create({ asset_id: 1, title: `n${i}`, amount: '1' }, fresh.key)).body!.payment_request.id);
    await create({ asset_id: 1, title: 'not mine', amount: '1' }, other.key);
    const all = await call('GET', '/api/merchant/v1/payment-requests', fresh.key);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body!)).toEqual(['data', 'current_page', 'per_page', 'total']);
    expect(all.body).toMatchObject({ current_page: 1, per_page: 25, total: 3 });
    expect(all.body!.data.map((r: { id: string }) => r.id)).toEqual([...made].reverse());
    const page2 = await call('GET', '/api/merchant/v1/payment-requests?per_page=2&page=2', fresh.key);
    expect(page2.body).toMatchObject({ current_page: 2, per_page: 2, total: 3 });
    expect(page2.body!.data.map((r: { id: string }) => r.id)).toEqual([made[0]]);
    const beyond = await call('GET', '/api/merchant/v1/payment-requests?page=9', fresh.key);
    expect(beyond.body).toEqual({ data: [], current_page: 9, per_page: 25, total: 3 });
    expect((await call('GET', '/api/merchant/v1/payment-requests?per_page=100', fresh.key)).status).toBe(200);
  });

  it.each([
    ['per_page=0', 'per_page'], ['per_page=101', 'per_page'], ['per_page=abc', 'per_page'], ['per_page=1.5', 'per_page'],
    ['page=0', 'page'], ['page=-1', 'page'], ['page=', 'page'],
  ])('422 for %s', async (query, field) => {
    const res = await call('GET', `/api/merchant/v1/payment-requests?${query}`, merchant.key);
    const limits = field === 'per_page' ? 'between 1 and 100' : 'between 1 and 1000000';
    expect(res).toEqual({ status: 422, body: { message: 'The given data was invalid.', errors: { [field]: [`Must be an integer ${limits}.`] } }, location: null });
  });
});

describe('retrieve and cancel by internal id', () => {
  it('retrieves its own request; another account\'s, unknown and non-numeric ids are 404 Not found.', async () => {
    const made = await create({ asset_id: 1, title: 'mine', amount: '1' });
    const id = idFrom(made.location);
    const got = await call('GET', `/api/merchant/v1/payment-requests/${id}`, merchant.key);
    expect(got).toEqual({ status: 200, body: made.body, location: null });
    for (const [key, path] of [[other.key, `${id}`], [merchant.key, '999999'], [merchant.key, 'abc'], [merchant.key, made.body!.payment_request.id]] as const) {
      expect(await call('GET', `/api/merchant/v1/payment-requests/${path}`, key)).toEqual({ status: 404, body: { message: 'Not found.' }, location: null });
      expect(await call('POST', `/api/merchant/v1/payment-requests/${path}/cancel`, key)).toEqual({ status: 404, body: { message: 'Not found.' }, location: null });
    }
  });

  it('cancels an unsettled request (idempotently); the public endpoint then answers 404', async () => {
    const made = await create({ asset_id: 1, title: 'to cancel', amount: '1' });
    const id = idFrom(made.location);
    const cancelled = await call('POST', `/api/merchant/v1/payment-requests/${id}/cancel`, merchant.key);
    expect(cancelled).toEqual({ status: 200, body: { payment_request: { ...made.body!.payment_request, status: 'cancelled' } }, location: null });
    expect((await call('POST', `/api/merchant/v1/payment-requests/${id}/cancel`, merchant.key)).body!.payment_request.status).toBe('cancelled');
    expect(await call('GET', `/api/pay/${made.body!.payment_request.id}`, null)).toEqual({ status: 404, body: { message: 'Not found.' }, location: null });
  });

  it('refuses to cancel a settled request: 422 {"message":"A settled request cannot be cancelled."}', async () => {
    const made = await create({ asset_id: 1, title: 'settled', amount: '0.5' });
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: 'aa01', index: 0, amount: '0.5', confirmations: 2, to: { slug: made.body!.payment_request.id } });
    const res = await call('POST', `/api/merchant/v1/payment-requests/${idFrom(made.location)}/cancel`, merchant.key);
    expect(res).toEqual({ status: 422, body: { message: 'A settled request cannot be cancelled.' }, location: null });
    const after = await call('GET', `/api/merchant/v1/payment-requests/${idFrom(made.location)}`, merchant.key);
    expect(after.body!.payment_request).toMatchObject({ status: 'paid', amount_paid: '0.5', amount_outstanding: '0', paid_at: expect.stringMatching(ISO) });
  });

  it('an expired request can be cancelled', async () => {
    const made = await create({ asset_id: 1, title: 'expires', amount: '1' });
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: idFrom(made.location) }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await call('POST', `/api/merchant/v1/payment-requests/${idFrom(made.location)}/cancel`, merchant.key);
    expect(res.body!.payment_request.status).toBe('cancelled');
  });
});

describe('GET /api/pay/{slug}', () => {
  it('answers the public fields only, unwrapped, without credentials', async () => {
    const made = await create({ asset_id: 1, title: 'Public', amount: '0.1', reference: 'secret-order', webhook_url: PUBLIC_HOOK, redirect_url: PUBLIC_REDIRECT });
    const object = made.body!.payment_request;
    const res = await call('GET', `/api/pay/${object.id}`, null);
    expect(res.status).toBe(200);
    const { reference: _r, webhook_url: _w, created_at: _c, ...publicFields } = object;
    expect(res.body).toEqual(publicFields);
    expect(Object.keys(res.body!)).toEqual([
      'id', 'type', 'title', 'description', 'status', 'asset', 'chain', 'address', 'amount_requested', 'amount_paid',
      'amount_outstanding', 'expires_at', 'paid_at', 'redirect_url',
    ]);
    expect(JSON.stringify(res.body)).not.toContain('secret-order');
    expect(JSON.stringify(res.body)).not.toContain(String(idFrom(made.location)) + ',');
  });

  it('404 Not found. for an unknown slug', async () => {
    for (const slug of ['A'.repeat(24), 'nope', '1']) {
      expect(await call('GET', `/api/pay/${slug}`, null)).toEqual({ status: 404, body: { message: 'Not found.' }, location: null });
    }
  });

  it('a pending request past its deadline reads expired before any job stored it', async () => {
    const made = await create({ asset_id: 1, title: 'late', amount: '1' });
    const id = idFrom(made.location);
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await call('GET', `/api/pay/${made.body!.payment_request.id}`, null)).body!.status).toBe('expired');
    expect((await call('GET', `/api/merchant/v1/payment-requests/${id}`, merchant.key)).body!.payment_request.status).toBe('expired');
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { id });
    expect(stored.status).toBe('pending');
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
