// Line-by-line conformance with ../shared/specs/crypto-payment-gateway.md (and the README's Decisions where the spec
// says "not shown"): the real app over real HTTP against real PostgreSQL, exact bodies and status codes. Each
// describe block is one table of the spec; the literal field lists below are the spec's, not the source's constants.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '@tributary/kit';
import { Account } from '../src/modules/accounts/account.entity.js';
import { ApiKey } from '../src/modules/accounts/api-key.entity.js';
import { generateApiKey } from '../src/modules/accounts/api-key-credentials.js';
import { PaymentRequest, PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { createPaymentWebhookSink, paymentRequestEndpointId } from '../src/modules/webhooks/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read by path in assertions
type Json = Record<string, any>;

/** Spec "Payment request object", visibility P, in the table's order. */
const PUBLIC_FIELDS = ['id', 'type', 'title', 'description', 'status', 'asset', 'chain', 'address', 'amount_requested', 'amount_paid', 'amount_outstanding', 'expires_at', 'paid_at', 'redirect_url'];
/** Every field of the table (P and M), in the table's order. */
const MERCHANT_FIELDS = [...PUBLIC_FIELDS, 'reference', 'webhook_url', 'created_at'];
/** Spec "Body" of a webhook, in the table's order. */
const WEBHOOK_FIELDS = ['event', 'id', 'type', 'status', 'asset', 'chain', 'amount_requested', 'amount_paid', 'reference', 'address', 'paid_at', 'timestamp'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SLUG = /^[A-Za-z0-9]{24}$/;
const BTC_ADDRESS = /^tb1q[02-9ac-hj-np-z]+$/;
const PUBLIC_HOOK = 'https://93.184.216.34/hooks/crypto';
const PUBLIC_REDIRECT = 'https://93.184.216.34/thanks';
const INVALID = 'The given data was invalid.';
const CREDENTIALS = { message: 'Invalid API credentials.' };
const NOT_FOUND = { message: 'Not found.' };
const LIST = '/api/merchant/v1/payment-requests';

let h: Harness;
let url: string;
let merchant: TestAccount;
let other: TestAccount;

type TestAccount = TestMerchant;
const createAccount = (name: string, status: 'active' | 'suspended' = 'active'): Promise<TestAccount> => createMerchant(h, name, { status });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  other = await createAccount('Conformance B');
});
// A fresh merchant (own key, own 120/min budget) for every test, so no test runs into another's rate limit.
beforeEach(async () => {
  merchant = await createAccount(`Conformance ${expect.getState().currentTestName ?? ''}`.slice(0, 100));
});
afterAll(async () => {
  await h?.close();
});

interface Answer {
  status: number;
  body: Json | null;
}

/** One HTTP call; redirects are never followed, so a 3xx would show up as such. */
async function call(method: string, path: string, options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const { key = merchant.key, body, headers = {} } = options;
  const res = await fetch(`${url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : null };
}

const create = (body: unknown, key = merchant.key) => callWithLocation(body, key);
async function callWithLocation(body: unknown, key: string): Promise<Answer & { id: number; object: Json }> {
  const res = await fetch(`${url}${LIST}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  const id = Number(/\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1] ?? Number.NaN);
  return { status: res.status, body: json, id, object: json.payment_request as Json };
}
async function created(body: Json, key = merchant.key): Promise<Answer & { id: number; object: Json }> {
  const res = await create(body, key);
  expect(res.status).toBe(201);
  return res;
}

const pick = (object: Json, fields: string[]) => Object.fromEntries(fields.map((field) => [field, object[field]]));
const getOne = (id: number, key = merchant.key) => call('GET', `${LIST}/${id}`, { key });
const cancel = (id: number, key = merchant.key) => call('POST', `${LIST}/${id}/cancel`, { key });
const publicView = (slug: string) => call('GET', `/api/pay/${slug}`, { key: null });

let txCounter = 0;
const sink = createPaymentWebhookSink();
/** A confirmed payment through the one payment entry point, with crypto's webhook sink (deliveries are queued, not sent). */
function pay(slug: string, amount: string, chain = 'bitcoin', confirmations = 2) {
  txCounter += 1;
  return new PaymentService(h.orm.em.fork(), { events: sink }).record({
    chain: chain as 'bitcoin',
    txid: `conf${txCounter.toString(16).padStart(8, '0')}`,
    index: 0,
    amount,
    confirmations,
    to: { slug },
  });
}
const pastDeadline = (id: number) => h.orm.em.fork().nativeUpdate(PaymentRequest, { id }, { expiresAt: new Date(Date.now() - 1000) });
const deliveries = (id: number) => h.orm.em.fork().find(WebhookDelivery, { endpointId: paymentRequestEndpointId(id) }, { orderBy: { createdAt: 'asc', eventName: 'asc' } });

describe('spec "Payment request object": fields, types, visibility, order', () => {
  it('merchant endpoints (create, retrieve, list, cancel) carry every field in the table order; the public endpoint exactly the P fields', async () => {
    const account = await createAccount('Object fields');
    const made = await created({ asset_id: 1, title: 'Order 7', amount: '0.25', description: 'Mug', reference: 'ord-7', ttl_minutes: 15, webhook_url: PUBLIC_HOOK, redirect_url: PUBLIC_REDIRECT }, account.key);
    expect(made.object).toEqual({
      id: expect.stringMatching(SLUG),
      type: 'invoice',
      title: 'Order 7',
      description: 'Mug',
      status: 'pending',
      asset: 'BTC',
      chain: 'bitcoin',
      address: expect.stringMatching(BTC_ADDRESS),
      amount_requested: '0.25',
      amount_paid: '0',
      amount_outstanding: '0.25',
      expires_at: expect.stringMatching(ISO),
      paid_at: null,
      redirect_url: PUBLIC_REDIRECT,
      reference: 'ord-7',
      webhook_url: PUBLIC_HOOK,
      created_at: expect.stringMatching(ISO),
    });
    expect(Object.keys(made.object)).toEqual(MERCHANT_FIELDS);
    expect(Object.keys(made.body!)).toEqual(['payment_request']);

    const got = await getOne(made.id, account.key);
    expect(got).toEqual({ status: 200, body: { payment_request: made.object } });
    expect(Object.keys(got.body!.payment_request)).toEqual(MERCHANT_FIELDS);

    const list = await call('GET', LIST, { key: account.key });
    expect(list).toEqual({ status: 200, body: { data: [made.object], current_page: 1, per_page: 25, total: 1 } });
    expect(Object.keys(list.body!.data[0])).toEqual(MERCHANT_FIELDS);

    const pub = await publicView(made.object.id);
    expect(pub).toEqual({ status: 200, body: pick(made.object, PUBLIC_FIELDS) });
    expect(Object.keys(pub.body!)).toEqual(PUBLIC_FIELDS);

    const cancelled = await cancel(made.id, account.key);
    expect(cancelled).toEqual({ status: 200, body: { payment_request: { ...made.object, status: 'cancelled' } } });
    expect(Object.keys(cancelled.body!.payment_request)).toEqual(MERCHANT_FIELDS);
  });

  it('a donation link: amount_requested, amount_outstanding and expires_at are null (merchant and public views)', async () => {
    const made = await created({ asset_id: 2, title: 'Tips', type: 'donation' });
    expect(made.object).toEqual({
      id: expect.stringMatching(SLUG),
      type: 'donation',
      title: 'Tips',
      description: null,
      status: 'pending',
      asset: 'ETH',
      chain: 'ethereum',
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      amount_requested: null,
      amount_paid: '0',
      amount_outstanding: null,
      expires_at: null,
      paid_at: null,
      redirect_url: null,
      reference: null,
      webhook_url: null,
      created_at: expect.stringMatching(ISO),
    });
    expect(await publicView(made.object.id)).toEqual({ status: 200, body: pick(made.object, PUBLIC_FIELDS) });
  });

  it('amount_paid is the running total of confirmed payments and amount_outstanding the remainder; paid_at when first settled', async () => {
    const made = await created({ asset_id: 1, title: 'Running total', amount: '1' });
    const slug = made.object.id as string;
    // Below the confirmation threshold: not counted, "0" still.
    await pay(slug, '0.3', 'bitcoin', 1);
    expect((await getOne(made.id)).body).toEqual({ payment_request: made.object });

    await pay(slug, '0.4');
    const partial = { ...made.object, status: 'partial', amount_paid: '0.4', amount_outstanding: '0.6' };
    expect(await getOne(made.id)).toEqual({ status: 200, body: { payment_request: partial } });
    expect(await publicView(slug)).toEqual({ status: 200, body: pick(partial, PUBLIC_FIELDS) });

    await pay(slug, '0.6');
    const paid = (await getOne(made.id)).body!.payment_request;
    expect(paid).toEqual({ ...made.object, status: 'paid', amount_paid: '1', amount_outstanding: '0', paid_at: expect.stringMatching(ISO) });
    expect(await publicView(slug)).toEqual({ status: 200, body: pick(paid, PUBLIC_FIELDS) });

    await pay(slug, '0.25');
    const overpaid = (await getOne(made.id)).body!.payment_request;
    // paid_at keeps the moment the request first settled; the excess shows as amount_paid above amount_requested.
    expect(overpaid).toEqual({ ...paid, status: 'overpaid', amount_paid: '1.25', amount_outstanding: '0' });
    expect(await publicView(slug)).toEqual({ status: 200, body: pick(overpaid, PUBLIC_FIELDS) });
  });

  it('a pending or partial request past its deadline reports expired in every view (list included) before any sweep', async () => {
    const account = await createAccount('Derived expiry');
    const pending = await created({ asset_id: 1, title: 'pending', amount: '1' }, account.key);
    const partial = await created({ asset_id: 1, title: 'partial', amount: '1' }, account.key);
    await pay(partial.object.id, '0.5');
    for (const made of [pending, partial]) await pastDeadline(made.id);
    const list = await call('GET', LIST, { key: account.key });
    expect(list.body!.data.map((r: Json) => [r.title, r.status, r.amount_paid])).toEqual([['partial', 'expired', '0.5'], ['pending', 'expired', '0']]);
    for (const made of [pending, partial]) {
      expect((await getOne(made.id, account.key)).body!.payment_request.status).toBe('expired');
      expect((await publicView(made.object.id)).body!.status).toBe('expired');
      expect((await h.orm.em.fork().findOneOrFail(PaymentRequest, { id: made.id })).status).not.toBe('expired');
    }
  });
});

describe('spec "Amounts"', () => {
  const AMOUNT_FORMAT = 'The amount must be a plain decimal string such as "0.5": digits with an optional fractional part, no sign, exponent, spaces or thousands separators.';

  it.each([
    ['1,000', AMOUNT_FORMAT],
    ['1 000', AMOUNT_FORMAT],
    ['-1', AMOUNT_FORMAT],
    ['+1', AMOUNT_FORMAT],
    ['1e3', AMOUNT_FORMAT],
    ['1E-3', AMOUNT_FORMAT],
    ['.5', AMOUNT_FORMAT],
    ['5.', AMOUNT_FORMAT],
    ['', AMOUNT_FORMAT],
    ['0x10', AMOUNT_FORMAT],
    ['0.000', 'The amount must be greater than zero.'],
  ])('amount %j is refused: 422 errors.amount', async (amount, message) => {
    const res = await create({ asset_id: 1, title: 't', amount });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors: { amount: [message] } } });
  });

  it('a JSON number is refused, not rounded (integers too)', async () => {
    for (const amount of [1, 0.5, 1e-8]) {
      expect((await create({ asset_id: 1, title: 't', amount })).body).toEqual({
        message: INVALID,
        errors: { amount: ['The amount must be a decimal string such as "0.5", not a JSON number.'] },
      });
    }
  });

  it.each([
    [1, 'BTC', '0.12345678', '0.123456789', 'The amount must not have more than 8 decimal places (the precision of BTC).'],
    [2, 'ETH', '0.123456789012345678', '0.1234567890123456789', 'The amount must not have more than 18 decimal places.'],
    [3, 'LTC', '0.00000001', '0.000000001', 'The amount must not have more than 8 decimal places (the precision of LTC).'],
    [4, 'MATIC', '0.000000000000000001', '0.0000000000000000001', 'The amount must not have more than 18 decimal places.'],
  ])('asset %i (%s): the asset\'s decimals are accepted, one more place is refused', async (assetId, _code, fits, finer, message) => {
    const ok = await create({ asset_id: assetId, title: 't', amount: fits });
    expect(ok.status).toBe(201);
    expect([ok.object.amount_requested, ok.object.amount_outstanding]).toEqual([fits, fits]);
    expect((await create({ asset_id: assetId, title: 't', amount: finer })).body).toEqual({ message: INVALID, errors: { amount: [message] } });
  });

  it.each([
    [1, 'BTC', '1.00000000', '1.000000000', 'The amount must not have more than 8 decimal places (the precision of BTC).'],
    [3, 'LTC', '0.10000000', '0.100000000', 'The amount must not have more than 8 decimal places (the precision of LTC).'],
    [2, 'ETH', `1.${'0'.repeat(18)}`, `1.${'0'.repeat(19)}`, 'The amount must not have more than 18 decimal places.'],
  ])('"Must not have more decimal places than the asset\'s decimals.": asset %i (%s) counts places as written, trailing zeros too', async (assetId, _code, fits, finer, message) => {
    expect((await created({ asset_id: assetId, title: 't', amount: fits })).object.amount_requested).toBe(fits.replace(/\.?0+$/, ''));
    const before = await call('GET', `${LIST}?per_page=100`);
    expect((await create({ asset_id: assetId, title: 't', amount: finer })).body).toEqual({ message: INVALID, errors: { amount: [message] } });
    expect(await call('GET', `${LIST}?per_page=100`)).toEqual(before);
  });

  it('responses carry the canonical plain decimal string (README: leading zeros and trailing zeros within the asset\'s decimals accepted and dropped)', async () => {
    expect((await created({ asset_id: 1, title: 't', amount: '007.50000000' })).object.amount_requested).toBe('7.5');
    expect((await created({ asset_id: 1, title: 't', amount: '1.00000000' })).object.amount_requested).toBe('1');
    const raw = await fetch(`${url}${LIST}?per_page=3`, { headers: { authorization: `Bearer ${merchant.key}`, accept: 'application/json' } });
    const text = await raw.text();
    // Never a JSON number in an amount field.
    expect(text).not.toMatch(/"amount_(requested|paid|outstanding)":\d/);
  });
});

describe('spec "Asset table"', () => {
  it.each([
    [1, 'BTC', 'bitcoin', /^tb1q/, 2],
    [2, 'ETH', 'ethereum', /^0x[0-9a-fA-F]{40}$/, 12],
    [3, 'LTC', 'litecoin', /^tltc1q/, 6],
    [4, 'MATIC', 'polygon', /^0x[0-9a-fA-F]{40}$/, 30],
  ] as Array<[number, string, string, RegExp, number]>)('asset_id %i is %s on %s; address %s, counted from %i confirmations', async (assetId, asset, chain, address, confirmations) => {
    const made = await created({ asset_id: assetId, title: 'asset', amount: '1' });
    expect(pick(made.object, ['asset', 'chain'])).toEqual({ asset, chain });
    expect(made.object.address).toMatch(address);
    const below = await pay(made.object.id, '0.5', chain, confirmations - 1);
    expect(below.credited).toBe(false);
    expect((await getOne(made.id)).body!.payment_request.amount_paid).toBe('0');
    const enough = await pay(made.object.id, '0.5', chain, confirmations);
    expect(enough.credited).toBe(true);
    expect(pick((await getOne(made.id)).body!.payment_request, ['status', 'amount_paid'])).toEqual({ status: 'partial', amount_paid: '0.5' });
  });

  it('an asset_id outside the table is refused on asset_id', async () => {
    for (const assetId of [5, 99]) {
      expect((await create({ asset_id: assetId, title: 't', amount: '1' })).body).toEqual({ message: INVALID, errors: { asset_id: ['The selected asset id is invalid.'] } });
    }
  });
});

describe('spec "States and transitions": every row over HTTP', () => {
  it('creation: pending, a receive address derived for this request alone, deadline = now + ttl_minutes', async () => {
    const before = Date.now();
    const a = await created({ asset_id: 1, title: 'a', amount: '1', ttl_minutes: 7 });
    const b = await created({ asset_id: 1, title: 'b', amount: '1', ttl_minutes: 7 });
    expect([a.object.status, b.object.status]).toEqual(['pending', 'pending']);
    expect(a.object.address).not.toBe(b.object.address);
    expect(Date.parse(a.object.expires_at) - Date.parse(a.object.created_at)).toBe(7 * 60_000);
    expect(Date.parse(a.object.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(a.object.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('confirmed payment below amount_requested: partial, not settled (cancel allowed), no event', async () => {
    const made = await created({ asset_id: 1, title: 'partial', amount: '1', webhook_url: PUBLIC_HOOK });
    const result = await pay(made.object.id, '0.1');
    expect(result.events).toEqual([]);
    expect(await deliveries(made.id)).toEqual([]);
    const res = await cancel(made.id);
    expect(res).toEqual({ status: 200, body: { payment_request: { ...made.object, status: 'cancelled', amount_paid: '0.1', amount_outstanding: '0.9' } } });
  });

  it('deadline passes on a partial invoice: expired, payment.expired whose amount_paid holds the partial amount', async () => {
    const made = await created({ asset_id: 1, title: 'expires', amount: '1', reference: 'ord-exp', webhook_url: PUBLIC_HOOK });
    await pay(made.object.id, '0.3');
    await pastDeadline(made.id);
    const change = await new PaymentRequestService(h.orm.em.fork(), { events: sink }).expireIfDue(made.id);
    expect(change.events.map((e) => e.event)).toEqual(['payment.expired']);
    expect((await h.orm.em.fork().findOneOrFail(PaymentRequest, { id: made.id })).status).toBe('expired');
    const [expired, ...more] = await deliveries(made.id);
    expect(more).toEqual([]);
    const body = JSON.parse(expired!.body) as Json;
    expect(Object.keys(body)).toEqual(WEBHOOK_FIELDS);
    expect(body).toEqual({
      event: 'payment.expired',
      id: made.object.id,
      type: 'invoice',
      status: 'expired',
      asset: 'BTC',
      chain: 'bitcoin',
      amount_requested: '1',
      amount_paid: '0.3',
      reference: 'ord-exp',
      address: made.object.address,
      paid_at: null,
      timestamp: expect.stringMatching(ISO),
    });
    expect({ event: expired!.eventName, url: expired!.endpointUrl }).toEqual({ event: 'payment.expired', url: PUBLIC_HOOK });
  });

  it('payment confirmed after expiry: credited, payment.late, never payment.paid; status stays expired (README)', async () => {
    const made = await created({ asset_id: 1, title: 'late', amount: '1', webhook_url: PUBLIC_HOOK });
    await pastDeadline(made.id);
    await new PaymentRequestService(h.orm.em.fork(), { events: sink }).expireIfDue(made.id);
    const late = await pay(made.object.id, '1');
    expect(late.events.map((e) => e.event)).toEqual(['payment.late']);
    const after = (await getOne(made.id)).body!.payment_request;
    expect(after).toEqual({ ...made.object, status: 'expired', amount_paid: '1', amount_outstanding: '0', expires_at: after.expires_at });
    const rows = await deliveries(made.id);
    expect(rows.map((d) => d.eventName)).toEqual(['payment.expired', 'payment.late']);
    const body = JSON.parse(rows[1]!.body) as Json;
    // The spec's fields in its order, then the late payment's own (README "Webhooks"): one payment.late per late payment.
    expect(Object.keys(body)).toEqual([...WEBHOOK_FIELDS, 'payment_txid', 'payment_output_index', 'payment_amount']);
    expect(body).toEqual({
      event: 'payment.late',
      id: made.object.id,
      type: 'invoice',
      status: 'expired',
      asset: 'BTC',
      chain: 'bitcoin',
      amount_requested: '1',
      amount_paid: '1',
      reference: null,
      address: made.object.address,
      paid_at: null,
      timestamp: expect.stringMatching(ISO),
      payment_txid: late.payment.txid,
      payment_output_index: 0,
      payment_amount: '1',
    });
  });

  it('POST cancel of an unsettled request (pending, partial, expired): cancelled; the public endpoint answers 404', async () => {
    const pending = await created({ asset_id: 1, title: 'p', amount: '1' });
    const expired = await created({ asset_id: 1, title: 'e', amount: '1' });
    await pastDeadline(expired.id);
    for (const made of [pending, expired]) {
      const res = await cancel(made.id);
      expect(res).toEqual({ status: 200, body: { payment_request: { ...made.object, status: 'cancelled', expires_at: res.body!.payment_request.expires_at } } });
      expect(await publicView(made.object.id)).toEqual({ status: 404, body: NOT_FOUND });
      // Cancelling again returns it unchanged (README).
      expect(await cancel(made.id)).toEqual(res);
    }
  });

  it('"deadline passes | invoice not fully paid | expired | payment.expired sent": a cancel after the deadline, before the expiry was stored, records it first (once), then cancels the expired request (README)', async () => {
    const made = await created({ asset_id: 1, title: 'late cancel', amount: '1', reference: 'ord-lc', webhook_url: PUBLIC_HOOK });
    await pay(made.object.id, '0.2');
    await pastDeadline(made.id);
    expect((await h.orm.em.fork().findOneOrFail(PaymentRequest, { id: made.id })).status).toBe('partial');
    const res = await cancel(made.id);
    expect(res).toEqual({ status: 200, body: { payment_request: { ...made.object, status: 'cancelled', amount_paid: '0.2', amount_outstanding: '0.8', expires_at: res.body!.payment_request.expires_at } } });
    const rows = await deliveries(made.id);
    expect(rows.map((d) => d.eventName)).toEqual(['payment.expired']);
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ event: 'payment.expired', id: made.object.id, status: 'expired', amount_paid: '0.2', reference: 'ord-lc' });
    // Exactly once: a second cancel and the expiry workflow's late run find nothing left to expire.
    expect(await cancel(made.id)).toEqual(res);
    expect((await new PaymentRequestService(h.orm.em.fork(), { events: sink }).expireIfDue(made.id)).events).toEqual([]);
    expect((await deliveries(made.id)).map((d) => d.id)).toEqual([rows[0]!.id]);
  });

  it('POST cancel of a settled request (paid, overpaid, a paid donation): 422 "message plus errors" (message: A settled request cannot be cancelled.), request unchanged', async () => {
    const paid = await created({ asset_id: 1, title: 'paid', amount: '1' });
    await pay(paid.object.id, '1');
    const overpaid = await created({ asset_id: 1, title: 'overpaid', amount: '1' });
    await pay(overpaid.object.id, '2');
    const donation = await created({ asset_id: 1, title: 'donation', type: 'donation' });
    await pay(donation.object.id, '0.1');
    for (const [made, status] of [[paid, 'paid'], [overpaid, 'overpaid'], [donation, 'paid']] as const) {
      const before = (await getOne(made.id)).body;
      expect(before!.payment_request.status).toBe(status);
      // Spec "Errors": a 422 is "message plus errors"; the errors name the field that refuses it, the request's status.
      expect(await cancel(made.id)).toEqual({
        status: 422,
        body: { message: 'A settled request cannot be cancelled.', errors: { status: [`The request is ${status}; only a pending, partial or expired request can be cancelled.`] } },
      });
      expect(await getOne(made.id)).toEqual({ status: 200, body: before });
      expect((await publicView(made.object.id)).status).toBe(200);
    }
  });

  it('a donation link has no deadline and never expires; after its first payment it is paid (README)', async () => {
    const made = await created({ asset_id: 1, title: 'tips', type: 'donation', ttl_minutes: 1, webhook_url: PUBLIC_HOOK });
    expect(made.object.expires_at).toBeNull();
    const farFuture = new PaymentRequestService(h.orm.em.fork(), { events: sink, now: () => new Date('2100-01-01T00:00:00Z') });
    expect((await farFuture.expireIfDue(made.id)).events).toEqual([]);
    await pay(made.object.id, '0.2');
    await pay(made.object.id, '0.3');
    expect((await getOne(made.id)).body!.payment_request).toEqual({ ...made.object, status: 'paid', amount_paid: '0.5', paid_at: expect.stringMatching(ISO) });
    const rows = await deliveries(made.id);
    expect(rows.map((d) => d.eventName)).toEqual(['payment.paid']);
    expect(JSON.parse(rows[0]!.body)).toEqual({
      event: 'payment.paid',
      id: made.object.id,
      type: 'donation',
      status: 'paid',
      asset: 'BTC',
      chain: 'bitcoin',
      amount_requested: null,
      amount_paid: '0.2',
      reference: null,
      address: made.object.address,
      paid_at: expect.stringMatching(ISO),
      timestamp: expect.stringMatching(ISO),
    });
  });
});

describe('spec "Endpoints"', () => {
  it('list: per_page defaults to 25 and page to 1; per_page 1 and 100 are the bounds; newest first; own requests only', async () => {
    const account = await createAccount('Paginated');
    const slugs: string[] = [];
    for (let i = 0; i < 27; i++) slugs.push((await created({ asset_id: 1, title: `n${i}`, amount: '1' }, account.key)).object.id);
    const newestFirst = [...slugs].reverse();
    const ids = (answer: Answer) => answer.body!.data.map((r: Json) => r.id);
    const page = (query: string) => call('GET', `${LIST}${query}`, { key: account.key });

    const first = await page('');
    expect(Object.keys(first.body!)).toEqual(['data', 'current_page', 'per_page', 'total']);
    expect({ ...first.body, data: ids(first) }).toEqual({ data: newestFirst.slice(0, 25), current_page: 1, per_page: 25, total: 27 });
    const second = await page('?page=2');
    expect({ ...second.body, data: ids(second) }).toEqual({ data: newestFirst.slice(25), current_page: 2, per_page: 25, total: 27 });
    const one = await page('?per_page=1');
    expect({ ...one.body, data: ids(one) }).toEqual({ data: newestFirst.slice(0, 1), current_page: 1, per_page: 1, total: 27 });
    const all = await page('?per_page=100&page=1');
    expect({ ...all.body, data: ids(all) }).toEqual({ data: newestFirst, current_page: 1, per_page: 100, total: 27 });
    for (const query of ['?per_page=0', '?per_page=101']) {
      expect(await page(query)).toEqual({ status: 422, body: { message: INVALID, errors: { per_page: ['Must be an integer between 1 and 100.'] } } });
    }
    expect(await page('?page=0')).toEqual({ status: 422, body: { message: INVALID, errors: { page: ['Must be an integer between 1 and 1000000.'] } } });
  });

  it('retrieve and cancel: another account\'s request answers 404 Not found. and stays untouched; so do unknown and non-numeric ids', async () => {
    const made = await created({ asset_id: 1, title: 'theirs', amount: '1' }, other.key);
    expect(await getOne(made.id, merchant.key)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await cancel(made.id, merchant.key)).toEqual({ status: 404, body: NOT_FOUND });
    // The public slug is not the internal id either.
    for (const id of ['999999', 'abc', made.object.id]) {
      expect(await call('GET', `${LIST}/${id}`, { key: other.key })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('POST', `${LIST}/${id}/cancel`, { key: other.key })).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect(await getOne(made.id, other.key)).toEqual({ status: 200, body: { payment_request: made.object } });
    expect((await call('GET', LIST, { key: merchant.key })).body!.data.map((r: Json) => r.id)).not.toContain(made.object.id);
  });

  it('GET /api/pay/{slug}: unknown, malformed and cancelled slugs answer 404 Not found.; no credentials needed, bad ones ignored', async () => {
    const made = await created({ asset_id: 1, title: 'public', amount: '1' });
    const withBadKey = await call('GET', `/api/pay/${made.object.id}`, { key: 'ck_nope.nope' });
    expect(withBadKey).toEqual({ status: 200, body: pick(made.object, PUBLIC_FIELDS) });
    // The internal id and the merchant route are not a way in.
    for (const slug of [String(made.id), made.object.id.toLowerCase(), `${made.object.id}x`, 'A'.repeat(24)]) {
      expect(await publicView(slug)).toEqual({ status: 404, body: NOT_FOUND });
    }
  });
});

describe('spec "Create body": every field and boundary', () => {
  const ok = (extra: Json) => created({ asset_id: 1, title: 't', amount: '1', ...extra });
  const refused = async (extra: Json, errors: Record<string, string[]>) => {
    const res = await create({ asset_id: 1, title: 't', amount: '1', ...extra });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  };

  it('title: 191 characters accepted, 192 refused (characters are code points, not UTF-16 units); required', async () => {
    expect((await ok({ title: 'x'.repeat(191) })).object.title).toBe('x'.repeat(191));
    expect((await ok({ title: '€'.repeat(191) })).object.title).toBe('€'.repeat(191));
    expect((await ok({ title: '😀'.repeat(191) })).object.title).toBe('😀'.repeat(191));
    for (const title of ['x'.repeat(192), '😀'.repeat(192)]) {
      expect((await create({ asset_id: 1, title, amount: '1' })).body).toEqual({ message: INVALID, errors: { title: ['Must be at most 191 characters.'] } });
    }
    for (const title of [undefined, '', '   ']) {
      expect((await create({ asset_id: 1, title, amount: '1' })).body).toEqual({ message: INVALID, errors: { title: ['This field is required.'] } });
    }
  });

  it('description: 2000 accepted, 2001 refused', async () => {
    expect((await ok({ description: 'd'.repeat(2000) })).object.description).toBe('d'.repeat(2000));
    expect((await create({ asset_id: 1, title: 't', amount: '1', description: 'd'.repeat(2001) })).body).toEqual({ message: INVALID, errors: { description: ['Must be at most 2000 characters.'] } });
  });

  it('reference: 128 accepted (returned to the merchant, never on the public view), 129 refused', async () => {
    const made = await ok({ reference: 'r'.repeat(128) });
    expect(made.object.reference).toBe('r'.repeat(128));
    expect(JSON.stringify((await publicView(made.object.id)).body)).not.toContain('rrrr');
    expect((await create({ asset_id: 1, title: 't', amount: '1', reference: 'r'.repeat(129) })).body).toEqual({ message: INVALID, errors: { reference: ['Must be at most 128 characters.'] } });
  });

  it('ttl_minutes: 1 and 10080 set expires_at = created_at + ttl; default 60; 0 and 10081 refused on an invoice', async () => {
    for (const [ttl, minutes] of [[1, 1], [10080, 10080], [undefined, 60], [null, 60]] as const) {
      const { object } = await ok(ttl === undefined ? {} : { ttl_minutes: ttl });
      expect(Date.parse(object.expires_at) - Date.parse(object.created_at)).toBe(minutes * 60_000);
    }
    for (const ttl of [0, 10081, -5, 1e20]) {
      expect((await create({ asset_id: 1, title: 't', amount: '1', ttl_minutes: ttl })).body).toEqual({ message: INVALID, errors: { ttl_minutes: ['Must be between 1 and 10080.'] } });
    }
    for (const ttl of [1.5, '60', true, {}]) {
      expect((await create({ asset_id: 1, title: 't', amount: '1', ttl_minutes: ttl })).body).toEqual({ message: INVALID, errors: { ttl_minutes: ['Must be an integer.'] } });
    }
  });

  it('ttl_minutes "ignored for donation links": any integer, in range or not, is accepted and has no effect; a value that is not an integer is refused (README)', async () => {
    for (const ttl of [0, -5, 1, 10080, 10081, 99999, 1e20, null]) {
      const made = await created({ asset_id: 1, title: 'tips', type: 'donation', ttl_minutes: ttl });
      expect(made.object).toMatchObject({ type: 'donation', status: 'pending', expires_at: null });
    }
    const before = await call('GET', `${LIST}?per_page=100`);
    for (const ttl of [1.5, '60', true, [], {}]) {
      expect((await create({ asset_id: 1, title: 'tips', type: 'donation', ttl_minutes: ttl })).body).toEqual({ message: INVALID, errors: { ttl_minutes: ['Must be an integer.'] } });
    }
    expect(await call('GET', `${LIST}?per_page=100`)).toEqual(before);
  });

  it('type: invoice by default (absent or null), donation refuses an amount, an invoice requires one, anything else refused', async () => {
    expect((await ok({})).object.type).toBe('invoice');
    expect((await ok({ type: null })).object.type).toBe('invoice');
    expect((await create({ asset_id: 1, title: 't', type: null })).body).toEqual({ message: INVALID, errors: { amount: ['An invoice requires an amount.'] } });
    expect((await create({ asset_id: 1, title: 't', type: 'donation', amount: '1' })).body).toEqual({ message: INVALID, errors: { amount: ['A donation link has no amount; omit this field.'] } });
    expect((await create({ asset_id: 1, title: 't', type: 'donation', amount: 1 })).body).toEqual({ message: INVALID, errors: { amount: ['A donation link has no amount; omit this field.'] } });
    expect((await created({ asset_id: 1, title: 't', type: 'donation', amount: null })).object.amount_requested).toBeNull();
    await refused({ type: 'INVOICE' }, { type: ['Invalid option: expected one of "invoice"|"donation"'] });
  });

  it('optional fields sent as null read as absent; unknown fields are ignored (README)', async () => {
    const made = await ok({ description: null, reference: null, ttl_minutes: null, webhook_url: null, redirect_url: null, type: null, colour: 'red', id: 'mine' });
    expect(pick(made.object, ['type', 'description', 'reference', 'webhook_url', 'redirect_url'])).toEqual({ type: 'invoice', description: null, reference: null, webhook_url: null, redirect_url: null });
    expect(made.object.id).toMatch(SLUG);
    expect(made.object).not.toHaveProperty('colour');
  });

  it('asset_id: required, an integer', async () => {
    for (const [assetId, message] of [
      [undefined, 'This field is required.'],
      ['1', 'Invalid input: expected number, received string'],
      [1.5, 'Invalid input: expected int, received number'],
      [true, 'Invalid input: expected number, received boolean'],
    ] as const) {
      expect((await create({ asset_id: assetId, title: 't', amount: '1' })).body).toEqual({ message: INVALID, errors: { asset_id: [message] } });
    }
  });

  // Neither the address a host resolved to nor its kind is named (localhost below resolves to 127.0.0.1).
  const publicRule = 'Must resolve to a public address.';
  it.each(['webhook_url', 'redirect_url'])('%s: https and a public address; http, loopback, private and link-local hosts refused', async (field) => {
    const made = await ok({ [field]: 'https://93.184.216.34/ok' });
    expect(made.object[field]).toBe('https://93.184.216.34/ok');
    const cases: Array<[string, string]> = [
      ['http://93.184.216.34/h', 'Must be an https URL.'],
      ['ftp://93.184.216.34/h', 'Must be an https URL.'],
      ['https://127.0.0.1/h', publicRule],
      ['https://localhost/h', publicRule],
      ['https://[::1]/h', publicRule],
      ['https://10.1.2.3/h', publicRule],
      ['https://172.16.0.1/h', publicRule],
      ['https://192.168.1.1/h', publicRule],
      ['https://169.254.169.254/h', publicRule],
      ['https://[fe80::1]/h', publicRule],
      ['not a url', 'Must be a valid absolute URL.'],
      // An empty string is not "absent": it is not an https URL.
      ['', 'Must be a valid absolute URL.'],
    ];
    for (const [value, message] of cases) {
      const res = await create({ asset_id: 1, title: 't', amount: '1', [field]: value });
      expect({ value, status: res.status, body: res.body }).toEqual({ value, status: 422, body: { message: INVALID, errors: { [field]: [message] } } });
    }
  });

  it('text that PostgreSQL cannot store as given (NUL, unpaired surrogates) is a 422 on its field, never a 500', async () => {
    const message = 'Must not contain NUL characters or unpaired surrogates.';
    for (const field of ['title', 'description', 'reference', 'webhook_url', 'redirect_url']) {
      for (const bad of ['a\u0000b', 'a\ud800b', 'a\udc00']) {
        const value = field.endsWith('_url') ? `https://93.184.216.34/${bad}` : bad;
        const res = await create({ asset_id: 1, title: 't', amount: '1', [field]: value });
        expect({ field, value, status: res.status, body: res.body }).toEqual({ field, value, status: 422, body: { message: INVALID, errors: { [field]: [message] } } });
      }
    }
    // A correctly paired surrogate (an emoji) is ordinary text.
    expect((await ok({ description: 'ok 😀' })).object.description).toBe('ok 😀');
  });

  it('every problem is reported at once, each field with an array of strings', async () => {
    const res = await create({ asset_id: 'x', title: 5, amount: 0.5, type: 'gift', description: 9, reference: [], ttl_minutes: '60', webhook_url: 'http://93.184.216.34', redirect_url: 'https://10.0.0.1' });
    expect(res.status).toBe(422);
    expect(res.body!.message).toBe(INVALID);
    expect(Object.keys(res.body!).sort()).toEqual(['errors', 'message']);
    expect(Object.keys(res.body!.errors).sort()).toEqual(['amount', 'asset_id', 'description', 'redirect_url', 'reference', 'title', 'ttl_minutes', 'type', 'webhook_url']);
    for (const messages of Object.values(res.body!.errors)) {
      expect(Array.isArray(messages)).toBe(true);
      for (const message of messages as unknown[]) expect(typeof message).toBe('string');
    }
  });
});

describe('request bodies that are not a valid create body: 4xx in the {message, errors?} format, never 500, never a redirect', () => {
  async function raw(body: string | Buffer, contentType = 'application/json', path = LIST) {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${merchant.key}`, accept: 'application/json', 'content-type': contentType },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it.each([
    ['truncated JSON', '{"asset_id":1,', 400, { message: 'The request body is not valid JSON.' }],
    ['not JSON at all', 'asset_id=1&title=t', 400, { message: 'The request body is not valid JSON.' }],
    ['a JSON string', '"invoice"', 422, { message: INVALID, errors: { body: ['The request body must be a JSON object.'] } }],
    ['a JSON number', '42', 422, { message: INVALID, errors: { body: ['The request body must be a JSON object.'] } }],
    ['JSON null', 'null', 422, { message: INVALID, errors: { body: ['The request body must be a JSON object.'] } }],
    ['a JSON array', '[{"asset_id":1,"title":"t","amount":"1"}]', 422, { message: INVALID, errors: { body: ['The request body must be a JSON object.'] } }],
    ['an empty array', '[]', 422, { message: INVALID, errors: { body: ['The request body must be a JSON object.'] } }],
    ['an empty object', '{}', 422, { message: INVALID, errors: { asset_id: ['This field is required.'], title: ['This field is required.'], amount: ['An invoice requires an amount.'] } }],
    ['wrong JSON types', '{"asset_id":[1],"title":{"x":1},"amount":true}', 422, {
      message: INVALID,
      errors: { asset_id: ['Invalid input: expected number, received array'], title: ['Invalid input: expected string, received object'], amount: ['The amount must be a decimal string such as "0.5".'] },
    }],
  ])('%s', async (_name, body, status, expected) => {
    expect(await raw(body)).toEqual({ status, body: expected });
  });

  it('an oversized body is a 413, a non-JSON media type a 415', async () => {
    const huge = JSON.stringify({ asset_id: 1, title: 't', amount: '1', description: 'x'.repeat(1_100_000) });
    expect(await raw(huge)).toEqual({ status: 413, body: { message: 'The request body is too large.' } });
    expect(await raw('asset_id=1', 'application/x-www-form-urlencoded')).toEqual({ status: 415, body: { message: 'The request body must be JSON (Content-Type: application/json).' } });
    expect(await raw('hello', 'text/plain')).toEqual({ status: 415, body: { message: 'The request body must be JSON (Content-Type: application/json).' } });
  });

  it('a malformed body on cancel is a 400 too; no merchant route answers with a redirect', async () => {
    const made = await created({ asset_id: 1, title: 't', amount: '1' });
    expect(await raw('{', 'application/json', `${LIST}/${made.id}/cancel`)).toEqual({ status: 400, body: { message: 'The request body is not valid JSON.' } });
    expect((await getOne(made.id)).body!.payment_request.status).toBe('pending');
    for (const [method, path] of [['GET', LIST], ['GET', `${LIST}/${made.id}`], ['POST', `${LIST}/${made.id}/cancel`], ['GET', `/api/pay/${made.object.id}`], ['GET', `${LIST}/x/y`]] as const) {
      for (const key of [merchant.key, null]) {
        const res = await call(method, path, { key });
        expect(res.status < 300 || res.status >= 400).toBe(true);
      }
    }
  });
});

describe('spec "Authentication": the same 401 for every bad credential, on every merchant route', () => {
  it('missing, malformed, other scheme, unknown key, wrong secret, revoked key, suspended account: {"message":"Invalid API credentials."}', async () => {
    const made = await created({ asset_id: 1, title: 'auth', amount: '1' });
    const revoked = await createAccount('Revoked');
    await h.orm.em.fork().nativeUpdate(ApiKey, { id: revoked.apiKeyId }, { revokedAt: new Date() });
    const suspended = await createAccount('Suspended', 'suspended');
    const [keyId] = merchant.key.split('.');
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      empty: { authorization: '' },
      bearerOnly: { authorization: 'Bearer ' },
      malformed: { authorization: 'Bearer not-a-key' },
      noSecret: { authorization: `Bearer ${keyId}` },
      otherScheme: { authorization: `Basic ${merchant.key}` },
      unknownKeyId: { authorization: `Bearer ${generateApiKey().plaintext}` },
      wrongSecret: { authorization: `Bearer ${keyId}.${'x'.repeat(48)}` },
      revoked: { authorization: `Bearer ${revoked.key}` },
      suspended: { authorization: `Bearer ${suspended.key}` },
    };
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/api/merchant/v1/account', undefined],
      ['POST', LIST, { asset_id: 1, title: 't', amount: '1' }],
      ['GET', LIST, undefined],
      ['GET', `${LIST}/${made.id}`, undefined],
      ['POST', `${LIST}/${made.id}/cancel`, undefined],
    ];
    for (const [method, path, body] of routes) {
      for (const [name, headers] of Object.entries(cases)) {
        const res = await call(method, path, { key: null, body, headers });
        expect({ method, path, name, ...res }).toEqual({ method, path, name, status: 401, body: CREDENTIALS });
      }
    }
    expect((await getOne(made.id)).body!.payment_request.status).toBe('pending');
    expect((await call('GET', LIST, { key: revoked.key })).body).toEqual(CREDENTIALS);
  });

  it('revocation and suspension take effect on the next request', async () => {
    const account = await createAccount('Next request');
    expect((await call('GET', LIST, { key: account.key })).status).toBe(200);
    await h.orm.em.fork().nativeUpdate(Account, { id: account.accountId }, { status: 'suspended' });
    expect(await call('GET', LIST, { key: account.key })).toEqual({ status: 401, body: CREDENTIALS });
    await h.orm.em.fork().nativeUpdate(Account, { id: account.accountId }, { status: 'active' });
    expect((await call('GET', LIST, { key: account.key })).status).toBe(200);
    await h.orm.em.fork().nativeUpdate(ApiKey, { id: account.apiKeyId }, { revokedAt: new Date() });
    expect(await call('GET', LIST, { key: account.key })).toEqual({ status: 401, body: CREDENTIALS });
  });
});

describe('spec "Events" and webhook "Body"', () => {
  it('payment.paid on an exact payment: the 12 fields in the table order, decimal strings, reference as sent, X-Gateway headers', async () => {
    const made = await created({ asset_id: 3, title: 'hooked', amount: '0.5', reference: 'ord-hook', webhook_url: PUBLIC_HOOK });
    const result = await pay(made.object.id, '0.5', 'litecoin', 6);
    expect(result.events.map((e) => e.event)).toEqual(['payment.paid']);
    const [delivery, ...more] = await deliveries(made.id);
    expect(more).toEqual([]);
    const body = JSON.parse(delivery!.body) as Json;
    expect(Object.keys(body)).toEqual(WEBHOOK_FIELDS);
    const paidAt = (await getOne(made.id)).body!.payment_request.paid_at as string;
    expect(body).toEqual({
      event: 'payment.paid',
      id: made.object.id,
      type: 'invoice',
      status: 'paid',
      asset: 'LTC',
      chain: 'litecoin',
      amount_requested: '0.5',
      amount_paid: '0.5',
      reference: 'ord-hook',
      address: made.object.address,
      paid_at: paidAt,
      timestamp: expect.stringMatching(ISO),
    });
    expect(delivery!.body).not.toMatch(/"amount_(requested|paid)":\d/);
    expect({ event: delivery!.eventName, eventHeader: delivery!.eventHeader, signatureHeader: delivery!.signatureHeader, url: delivery!.endpointUrl }).toEqual({
      event: body.event,
      eventHeader: 'X-Gateway-Event',
      signatureHeader: 'X-Gateway-Signature',
      url: PUBLIC_HOOK,
    });
  });

  it('overpaid: one payment.paid with status overpaid (README); a further payment on a paid request sends nothing more', async () => {
    const over = await created({ asset_id: 1, title: 'over', amount: '1', webhook_url: PUBLIC_HOOK });
    await pay(over.object.id, '1.5');
    const [overDelivery, ...none] = await deliveries(over.id);
    expect(none).toEqual([]);
    expect(JSON.parse(overDelivery!.body)).toMatchObject({ event: 'payment.paid', status: 'overpaid', amount_requested: '1', amount_paid: '1.5', paid_at: expect.stringMatching(ISO) });

    const paid = await created({ asset_id: 1, title: 'paid then more', amount: '1', webhook_url: PUBLIC_HOOK });
    await pay(paid.object.id, '1');
    expect((await pay(paid.object.id, '0.1')).events).toEqual([]);
    expect((await deliveries(paid.id)).map((d) => [d.eventName, JSON.parse(d.body).status])).toEqual([['payment.paid', 'paid']]);
    expect((await getOne(paid.id)).body!.payment_request.status).toBe('overpaid');
  });

  it('no webhook_url, no delivery; only the three event kinds are ever queued', async () => {
    const silent = await created({ asset_id: 1, title: 'silent', amount: '1' });
    expect((await pay(silent.object.id, '1')).events.map((e) => e.event)).toEqual(['payment.paid']);
    expect(await deliveries(silent.id)).toEqual([]);
    const all = await h.orm.em.fork().find(WebhookDelivery, {});
    expect(all.length).toBeGreaterThan(0);
    for (const delivery of all) {
      expect(['payment.paid', 'payment.late', 'payment.expired']).toContain(delivery.eventName);
      // The spec's fields in its order; a payment.late adds its late payment's after them (README "Webhooks").
      const late = delivery.eventName === 'payment.late' ? ['payment_txid', 'payment_output_index', 'payment_amount'] : [];
      expect(Object.keys(JSON.parse(delivery.body) as Json)).toEqual([...WEBHOOK_FIELDS, ...late]);
    }
  });
});

describe('spec "Limits": the rate limit covers the payment request routes (429 {"message":"Too Many Attempts."} with Retry-After)', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({ env: { CRYPTO_MERCHANT_RATE_LIMIT: '2', CRYPTO_PUBLIC_RATE_LIMIT: '2' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('merchant routes per key, the public payer endpoint per IP', async () => {
    const limitedKey = (await createMerchant(limited, 'Limited')).key;
    const get = (path: string, key?: string) =>
      fetch(`${limited.service.url}${path}`, { headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) } });
    for (const [path, key, status] of [[LIST, limitedKey, 200], ['/api/pay/AAAAAAAAAAAAAAAAAAAAAAAA', undefined, 404]] as const) {
      const codes: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await get(path, key);
        await res.arrayBuffer();
        codes.push(res.status);
      }
      expect(codes).toEqual([status, status]);
      const over = await get(path, key);
      expect(over.status).toBe(429);
      expect(await over.json()).toEqual({ message: 'Too Many Attempts.' });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});
