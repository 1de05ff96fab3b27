// The widget session API over real HTTP against the real service, PostgreSQL and Temporal dev server: create
// validation (one 422 per problem, nothing stored), Idempotency-Key, the KEYS and PK guards and their isolation,
// livemode, cancel rules under a row lock, effective expiry before the workflow, the expiry workflow's start through
// the outbox, and the GraphQL view.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { MALFORMED_TEXT_MESSAGE, WorkflowOutboxEntry, createWorkflowOutbox } from '@tributary/kit';
import { IDEMPOTENT_RETRY_BURST, testTemporalAddress, waitFor } from '@tributary/kit/testing';
import { WORKFLOW_TYPES, widgetSessionWorkflowId } from '@tributary/workflows';
import { BOOKED_LOAN_STATUS, Loan, generateLoanNumber } from '../src/modules/loans/index.js';
import { MerchantPlan } from '../src/modules/plans/index.js';
import { SESSION_CREATE_MESSAGES, WidgetSession, type SessionStatus } from '../src/modules/widget-sessions/index.js';
import { createApiKey, createMerchant, gql, startHarness, type Harness, type TestApiKey, type TestMerchant } from './helpers.js';

const PATH = '/api/v1/widget/sessions';
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
const NOT_FOUND = { error: { code: 'not_found', message: 'Not found.' } };
const REUSED = 'This Idempotency-Key was already used for a request with a different body.';
const INVALID_KEY = 'Must be 1 to 255 visible ASCII characters without spaces.';
const PAY_IN_4_RANGE = "Must be within the limits of the merchant's enabled installment plans: 5000 to 100000 (minor units).";

let h: Harness;
let shop: TestMerchant;
let testKey: TestApiKey;
let liveKey: TestApiKey;
let temporal: Connection;

beforeAll(async () => {
  h = await startHarness();
  shop = await createMerchant(h, 'Session Shop');
  testKey = await createApiKey(h, shop, 'test');
  liveKey = await createApiKey(h, shop, 'live');
  temporal = await Connection.connect({ address: testTemporalAddress() });
});
afterAll(async () => {
  await h?.close();
  await temporal?.close();
});

const cart = {
  amount_cents: 25_000,
  currency: 'EUR',
  order_reference: 'order-7',
  customer_email: 'jo@example.com',
  customer_phone: '+442071234567',
  purchase_description: 'A lamp',
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cart',
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function request(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${h.service.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const create = (body: unknown, key: TestApiKey = testKey, extra: Record<string, string> = {}) => request('POST', PATH, { ...key.keys, ...extra }, body);
const read = (token: string, headers: Record<string, string> = testKey.pk) => request('GET', `${PATH}/${token}`, headers);
const cancel = (token: string, headers: Record<string, string> = testKey.pk) => request('POST', `${PATH}/${token}/cancel`, headers);

async function newSession(key: TestApiKey = testKey, body: object = cart): Promise<string> {
  const res = await create(body, key);
  expect(res.status).toBe(201);
  return res.body.session_token as string;
}

const sessionsOf = (merchantId: string) => h.orm.em.fork().count(WidgetSession, { merchant: merchantId });
const outboxStarts = () => h.orm.em.fork().count(WorkflowOutboxEntry, { kind: 'start', workflowType: WORKFLOW_TYPES.widgetSessionExpiry });
const stored = (token: string) => h.orm.em.fork().findOneOrFail(WidgetSession, { token });
const setStored = (token: string, changes: Partial<Pick<WidgetSession, 'status' | 'expiresAt'>>) => h.orm.em.fork().nativeUpdate(WidgetSession, { token }, changes);

/** A merchant with its own test key pair. */
async function newShop(name: string): Promise<{ shop: TestMerchant; key: TestApiKey }> {
  const merchant = await createMerchant(h, name);
  return { shop: merchant, key: await createApiKey(h, merchant, 'test') };
}

describe('create: validation (422 validation_failed naming each field; nothing stored)', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['amount_cents missing', { amount_cents: undefined }, { amount_cents: ['This field is required.'] }],
    ['amount_cents as a string', { amount_cents: '25000' }, { amount_cents: [SESSION_CREATE_MESSAGES.amount] }],
    ['amount_cents fractional', { amount_cents: 25_000.5 }, { amount_cents: [SESSION_CREATE_MESSAGES.amount] }],
    ['amount_cents zero', { amount_cents: 0 }, { amount_cents: [SESSION_CREATE_MESSAGES.amount] }],
    ['amount_cents negative', { amount_cents: -100 }, { amount_cents: [SESSION_CREATE_MESSAGES.amount] }],
    ['amount_cents below every enabled plan', { amount_cents: 4_999 }, { amount_cents: [PAY_IN_4_RANGE] }],
    ['amount_cents above every enabled plan', { amount_cents: 100_001 }, { amount_cents: [PAY_IN_4_RANGE] }],
    ['amount_cents beyond a 32-bit column', { amount_cents: 2 ** 40 }, { amount_cents: [PAY_IN_4_RANGE] }],
    ['currency missing', { currency: undefined }, { currency: ['This field is required.'] }],
    ['currency lower case', { currency: 'usd' }, { currency: [SESSION_CREATE_MESSAGES.currencyFormat] }],
    ['currency not three letters', { currency: 'EURO' }, { currency: [SESSION_CREATE_MESSAGES.currencyFormat] }],
    ['currency a number', { currency: 978 }, { currency: [SESSION_CREATE_MESSAGES.currencyFormat] }],
    ['currency ISO but unsupported', { currency: 'JPY' }, { currency: [SESSION_CREATE_MESSAGES.currencyUnsupported] }],
    ['order_reference missing', { order_reference: undefined }, { order_reference: ['This field is required.'] }],
    ['order_reference blank', { order_reference: '   ' }, { order_reference: ['This field is required.'] }],
    ['order_reference too long', { order_reference: 'r'.repeat(192) }, { order_reference: ['Must be at most 191 characters.'] }],
    ['order_reference with NUL', { order_reference: 'a\u0000b' }, { order_reference: [MALFORMED_TEXT_MESSAGE] }],
    ['order_reference not text', { order_reference: 7 }, { order_reference: [SESSION_CREATE_MESSAGES.notText] }],
    ['customer_email malformed', { customer_email: 'jo at example.com' }, { customer_email: [SESSION_CREATE_MESSAGES.email] }],
    // Found by Schemathesis (contract-fuzz): zod's own e-mail format took a host label ending in a hyphen or of 64
    // characters, and a local part over 64 characters.
    ['customer_email host label ending in a hyphen', { customer_email: 'jo@shop-.example.com' }, { customer_email: [SESSION_CREATE_MESSAGES.email] }],
    ['customer_email host label of 64 characters', { customer_email: `jo@${'e'.repeat(64)}.com` }, { customer_email: [SESSION_CREATE_MESSAGES.email] }],
    ['customer_email local part of 65 characters', { customer_email: `${'j'.repeat(65)}@example.com` }, { customer_email: [SESSION_CREATE_MESSAGES.email] }],
    ['customer_email too long', { customer_email: `${'j'.repeat(64)}@${'e'.repeat(63)}.${'x'.repeat(63)}.${'y'.repeat(63)}.com` }, { customer_email: ['Must be at most 254 characters.'] }],
    ['customer_phone without +', { customer_phone: '4155550123' }, { customer_phone: [SESSION_CREATE_MESSAGES.phone] }],
    ['customer_phone with spaces', { customer_phone: '+1 415 555 0123' }, { customer_phone: [SESSION_CREATE_MESSAGES.phone] }],
    ['customer_phone country code 0', { customer_phone: '+04155550123' }, { customer_phone: [SESSION_CREATE_MESSAGES.phone] }],
    ['customer_phone 16 digits', { customer_phone: '+1234567890123456' }, { customer_phone: [SESSION_CREATE_MESSAGES.phone] }],
    ['purchase_description too long', { purchase_description: 'd'.repeat(501) }, { purchase_description: ['Must be at most 500 characters.'] }],
    ['purchase_description unpaired surrogate', { purchase_description: 'x\ud800' }, { purchase_description: [MALFORMED_TEXT_MESSAGE] }],
    ['success_url missing', { success_url: undefined }, { success_url: ['This field is required.'] }],
    ['success_url relative', { success_url: '/thanks' }, { success_url: [SESSION_CREATE_MESSAGES.urlAbsolute] }],
    ['success_url ftp', { success_url: 'ftp://shop.example/ok' }, { success_url: [SESSION_CREATE_MESSAGES.urlHttpsTest] }],
    ['success_url http to a public host (test key)', { success_url: 'http://shop.example/ok' }, { success_url: [SESSION_CREATE_MESSAGES.urlHttpsTest] }],
    ['success_url with credentials', { success_url: 'https://user:pw@shop.example/ok' }, { success_url: [SESSION_CREATE_MESSAGES.urlCredentials] }],
    ['success_url too long', { success_url: `https://shop.example/${'p'.repeat(2030)}` }, { success_url: ['Must be at most 2048 characters.'] }],
    ['cancel_url javascript:', { cancel_url: 'javascript:alert(1)' }, { cancel_url: [SESSION_CREATE_MESSAGES.urlHttpsTest] }],
    ['cancel_url missing', { cancel_url: undefined }, { cancel_url: ['This field is required.'] }],
  ];

  it.each(cases)('%s', async (_name, change, fields) => {
    const [sessionsBefore, startsBefore] = [await sessionsOf(shop.merchant.id), await outboxStarts()];
    const res = await create({ ...cart, ...change });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { error: { code: 'validation_failed', message: 'The request is invalid.', fields } } });
    expect([await sessionsOf(shop.merchant.id), await outboxStarts()]).toEqual([sessionsBefore, startsBefore]);
  });

  it('reports every problem in one 422', async () => {
    const res = await create({ amount_cents: 1, currency: 'usd', order_reference: '', customer_email: 'x', customer_phone: '1', purchase_description: 'ok', success_url: 'x', cancel_url: 'http://shop.example' });
    expect(res.status).toBe(422);
    expect(Object.keys((res.body.error as { fields: object }).fields).sort()).toEqual(['amount_cents', 'cancel_url', 'currency', 'customer_email', 'customer_phone', 'order_reference', 'success_url']);
  });

  it('a body that is not a JSON object is refused on body; an empty object names every required field', async () => {
    expect((await create([cart])).body).toEqual({ error: { code: 'validation_failed', message: 'The request is invalid.', fields: { body: ['The request body must be a JSON object.'] } } });
    const empty = await create({});
    expect(Object.keys((empty.body.error as { fields: object }).fields).sort()).toEqual(['amount_cents', 'cancel_url', 'currency', 'order_reference', 'success_url']);
  });

  it('accepts the range limits inclusively, null optional fields, unknown fields (ignored), and trims order_reference', async () => {
    for (const amount_cents of [5_000, 100_000]) expect((await create({ ...cart, amount_cents })).status).toBe(201);
    const token = await newSession(testKey, { ...cart, customer_email: null, customer_phone: null, purchase_description: null, order_reference: '  order-8  ', coupon: 'X' });
    expect(await stored(token)).toMatchObject({ customerEmail: null, customerPhone: null, purchaseDescription: null, orderReference: 'order-8' });
    const blank = await newSession(testKey, { ...cart, purchase_description: '   ', success_url: '  https://shop.example/ok  ' });
    expect(await stored(blank)).toMatchObject({ purchaseDescription: null, successUrl: 'https://shop.example/ok' });
  });

  it('every supported currency is accepted: USD, EUR, GBP, CAD, AUD', async () => {
    for (const currency of ['USD', 'EUR', 'GBP', 'CAD', 'AUD']) expect((await create({ ...cart, currency })).status).toBe(201);
  });

  it('http://localhost and http://127.0.0.1 are allowed with a test key only', async () => {
    const local = { ...cart, success_url: 'http://localhost:3000/ok', cancel_url: 'http://127.0.0.1:8080/cart' };
    expect((await create(local, testKey)).status).toBe(201);
    expect((await create({ ...cart, success_url: 'http://[::1]:3000/ok' }, testKey)).status).toBe(201);
    expect((await create({ ...cart, success_url: 'http://localhost.shop.example/ok' }, testKey)).status).toBe(422);
    const live = await create(local, liveKey);
    expect(live.status).toBe(422);
    expect((live.body.error as { fields: object }).fields).toEqual({ success_url: [SESSION_CREATE_MESSAGES.urlHttpsLive], cancel_url: [SESSION_CREATE_MESSAGES.urlHttpsLive] });
  });

  it('with no plan enabled every amount is refused, saying so', async () => {
    const { shop: noPlans, key } = await newShop('No Plans');
    const em = h.orm.em.fork();
    em.create(MerchantPlan, { merchant: noPlans.merchant.id, planId: 'pay_in_4', isEnabled: false });
    await em.flush();
    const res = await create(cart, key);
    expect(res.body).toEqual({ error: { code: 'validation_failed', message: 'The request is invalid.', fields: { amount_cents: [SESSION_CREATE_MESSAGES.noPlanEnabled] } } });
    expect(await sessionsOf(noPlans.merchant.id)).toBe(0);
  });
});

describe('create: stored session and expiry workflow start', () => {
  it('stores an initialized session with the validated fields and commits the expiry workflow start, left queued for the worker’s sweeper', async () => {
    const before = Date.now();
    const token = await newSession();
    const session = await stored(token);
    expect(session).toMatchObject({ status: 'initialized', livemode: false, amountCents: 25_000, currency: 'EUR', orderReference: 'order-7', customerEmail: 'jo@example.com', customerPhone: '+442071234567', purchaseDescription: 'A lamp', successUrl: cart.success_url, cancelUrl: cart.cancel_url, idempotencyKey: null });
    expect(session.expiresAt.getTime() - before).toBeGreaterThan(29 * 60_000);

    // Named by the session's id: the token opens the shopper's checkout, and workflow ids, inputs and summaries are
    // read by operators (Temporal UI, worker logs).
    const workflowId = widgetSessionWorkflowId(session.id);
    expect(workflowId).toBe(`widget-session-${session.id}`);
    const entry = await h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId, kind: 'start' });
    expect(entry).toMatchObject({ workflowType: 'widgetSessionExpiryWorkflow', taskQueue: 'bnpl', args: [{ sessionId: session.id, expiresAt: session.expiresAt.toISOString() }] });
    expect(JSON.stringify({ workflowId: entry.workflowId, args: entry.args, summary: entry.summary, details: entry.details })).not.toContain(token);
    expect(await h.orm.em.fork().count(WorkflowOutboxEntry, { workflowId: { $like: `%${token}%` } })).toBe(0);
    // Never the shopper's details in what operators read.
    expect(`${entry.summary} ${entry.details}`).not.toMatch(/jo@example|\+44|order-7|A lamp/);
    // The create made no Temporal call: the start waits in the outbox until the worker's sweeper sends it, as here.
    expect(entry.dispatchedAt).toBeNull();
    const client = new Client({ connection: temporal });
    expect((await createWorkflowOutbox({ em: h.orm.em, client }).sweep({ olderThanMs: 0 })).dispatched).toContain(entry.id);
    const handle = client.workflow.getHandle(workflowId);
    const described = await handle.describe();
    expect({ type: described.type, taskQueue: described.taskQueue, status: described.status.name }).toEqual({ type: 'widgetSessionExpiryWorkflow', taskQueue: 'bnpl', status: 'RUNNING' });
    // No bnpl worker for this test's database polls the dev server: end the workflow here.
    await handle.terminate('test over');
  });

  it('livemode comes from the key: a test key makes a test session, a live key a live one', async () => {
    expect((await read(await newSession(testKey))).body.livemode).toBe(false);
    expect((await read(await newSession(liveKey), liveKey.pk)).body.livemode).toBe(true);
  });

  it('checkout_url is the service’s own address + /checkout/<token> when PUBLIC_BASE_URL is not set', async () => {
    const res = await create(cart);
    expect(res.body.checkout_url).toBe(`${h.service.url}/checkout/${res.body.session_token as string}`);
  });
});

describe('create: Idempotency-Key', () => {
  const withKey = (key: string) => ({ 'idempotency-key': key });

  it('same key and body: 201 with the same session, Idempotent-Replayed: true; one row, one workflow start', async () => {
    const [rowsBefore, startsBefore] = [await sessionsOf(shop.merchant.id), await outboxStarts()];
    const first = await create(cart, testKey, withKey('order-7-try'));
    const retry = await create({ ...cart, order_reference: ' order-7 ', coupon: 'ignored' }, testKey, withKey('order-7-try'));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect({ status: retry.status, body: retry.body, replayed: retry.headers.get('idempotent-replayed'), location: retry.headers.get('location') }).toEqual({
      status: 201,
      body: first.body,
      replayed: 'true',
      location: first.headers.get('location'),
    });
    expect([await sessionsOf(shop.merchant.id), await outboxStarts()]).toEqual([rowsBefore + 1, startsBefore + 1]);
  });

  it('same key, different body: 422 idempotency_key_reused on the key, nothing created', async () => {
    await create(cart, testKey, withKey('order-9'));
    const rows = await sessionsOf(shop.merchant.id);
    for (const changed of [{ ...cart, amount_cents: 25_001 }, { ...cart, customer_email: null }, { ...cart, success_url: 'https://shop.example/other' }]) {
      const res = await create(changed, testKey, withKey('order-9'));
      expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { error: { code: 'idempotency_key_reused', message: REUSED, fields: { 'Idempotency-Key': [REUSED] } } } });
    }
    // The same body sent with the merchant's live key is another request (another mode).
    expect((await create(cart, liveKey, withKey('order-9'))).body).toMatchObject({ error: { code: 'idempotency_key_reused' } });
    expect(await sessionsOf(shop.merchant.id)).toBe(rows);
  });

  it('keys are per merchant: another merchant may use the same key', async () => {
    const mine = await create(cart, testKey, withKey('shared'));
    const { key } = await newShop('Other Idempotent Shop');
    const theirs = await create(cart, key, withKey('shared'));
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.session_token).not.toBe(mine.body.session_token);
  });

  it('concurrent retries with one key create exactly one session, one workflow start, and all answer with it', async () => {
    const { shop: burstShop, key } = await newShop('Burst Shop');
    const startsBefore = await outboxStarts();
    const answers = await Promise.all(Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => create(cart, key, withKey('burst'))));
    expect(answers.map((a) => a.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    expect(new Set(answers.map((a) => a.body.session_token)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await sessionsOf(burstShop.merchant.id)).toBe(1);
    expect(await outboxStarts()).toBe(startsBefore + 1);
  });

  it('a malformed key is a 422 on Idempotency-Key reported with the body problems; a refused create is not remembered', async () => {
    for (const bad of ['has space', 'x'.repeat(256)]) {
      const res = await create({ ...cart, currency: 'eur' }, testKey, withKey(bad));
      expect(res.body).toEqual({ error: { code: 'validation_failed', message: 'The request is invalid.', fields: { 'Idempotency-Key': [INVALID_KEY], currency: [SESSION_CREATE_MESSAGES.currencyFormat] } } });
    }
    expect((await create({ ...cart, currency: 'eur' }, testKey, withKey('fix-me'))).status).toBe(422);
    const fixed = await create(cart, testKey, withKey('fix-me'));
    expect([fixed.status, fixed.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('a replay shows the session as it is now (cancelled), under the same token', async () => {
    const first = await create(cart, testKey, withKey('then-cancelled'));
    const token = first.body.session_token as string;
    expect((await cancel(token)).status).toBe(200);
    const retry = await create(cart, testKey, withKey('then-cancelled'));
    expect([retry.status, retry.body.session_token, retry.headers.get('idempotent-replayed')]).toEqual([201, token, 'true']);
    expect((await read(token)).body.status).toBe('cancelled');
  });
});

describe('KEYS guard (create)', () => {
  it('answers the one 401 (with WWW-Authenticate: Bearer) for every bad credential, and stores nothing', async () => {
    const { key: otherKey } = await newShop('Other Keys Shop');
    const revoked = await createApiKey(h, shop, 'test', { revokedAt: new Date() });
    const cases: Record<string, Record<string, string>> = {
      none: {},
      publicKeyOnly: testKey.pk,
      secretOnly: { authorization: `Bearer ${testKey.secretKey}` },
      wrongSecret: { ...testKey.pk, authorization: `Bearer ${liveKey.secretKey}` },
      otherMerchantsSecret: { ...testKey.pk, authorization: `Bearer ${otherKey.secretKey}` },
      unknownPublicKey: { ...testKey.keys, 'x-merchant-public-key': `pk_test_${'Z'.repeat(32)}` },
      malformedPublicKey: { ...testKey.keys, 'x-merchant-public-key': 'nope' },
      revokedKey: revoked.keys,
      dashboardToken: { authorization: `Bearer ${shop.token}` },
      notBearer: { ...testKey.pk, authorization: `Basic ${testKey.secretKey}` },
    };
    const rows = await sessionsOf(shop.merchant.id);
    for (const [name, headers] of Object.entries(cases)) {
      const res = await request('POST', PATH, headers, cart);
      expect({ name, status: res.status, body: res.body, challenge: res.headers.get('www-authenticate') }).toEqual({ name, status: 401, body: UNAUTHENTICATED, challenge: 'Bearer' });
    }
    expect(await sessionsOf(shop.merchant.id)).toBe(rows);
  });

  it('a key revoked through the dashboard stops creating (at once, or within the verified-key cache’s few seconds)', async () => {
    const pair = await createApiKey(h, shop, 'test');
    expect((await create(cart, pair)).status).toBe(201);
    const revoked = await fetch(`${h.service.url}/api/v1/merchant/api-keys/${pair.key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${shop.token}` } });
    expect(revoked.status).toBe(204);
    expect(await waitFor(async () => (await create({ ...cart, amount_cents: 'refused either way' }, pair)).status, (status) => status === 401, 15_000)).toBe(401);
  });
});

describe('PK guard and isolation (read and cancel)', () => {
  it('another merchant’s public key, the other mode’s key, an unknown and a malformed token: 404 (nothing changed)', async () => {
    const token = await newSession();
    const { key: otherKey } = await newShop('Nosy Shop');
    for (const [headers, path] of [
      [otherKey.pk, token],
      [liveKey.pk, token],
      [testKey.pk, `ws_${'A'.repeat(32)}`],
      [testKey.pk, 'ws_short'],
      [testKey.pk, 'not-a-token'],
    ] as const) {
      expect(await read(path, headers)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await cancel(path, headers)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await stored(token)).status).toBe('initialized');
  });

  it('a missing, malformed, unknown or revoked public key: the one 401', async () => {
    const token = await newSession();
    const revoked = await createApiKey(h, shop, 'test', { revokedAt: new Date() });
    for (const headers of [{}, { 'x-merchant-public-key': 'pk_test_x' }, { 'x-merchant-public-key': `pk_test_${'Q'.repeat(32)}` }, revoked.pk, { authorization: `Bearer ${shop.token}` }]) {
      for (const res of [await read(token, headers), await cancel(token, headers)]) {
        expect({ status: res.status, body: res.body, challenge: res.headers.get('www-authenticate') }).toEqual({ status: 401, body: UNAUTHENTICATED, challenge: 'Bearer' });
      }
    }
  });

  it('any active key of the merchant in the session’s mode may read it', async () => {
    const token = await newSession();
    const second = await createApiKey(h, shop, 'test');
    expect((await read(token, second.pk)).status).toBe(200);
  });

  it('the read body never shows the shopper’s contact details or the merchant’s URLs', async () => {
    const res = await read(await newSession());
    expect(JSON.stringify(res.body)).not.toMatch(/jo@example|\+442071234567|shop\.example/);
  });

  it('loan_id shows the loan checkout booked once the session is authorized', async () => {
    const token = await newSession();
    const em = h.orm.em.fork();
    const session = await em.findOneOrFail(WidgetSession, { token });
    session.status = 'authorized';
    session.authorizedAt = new Date();
    const loan = em.create(Loan, {
      loanNumber: generateLoanNumber(), merchant: shop.merchant.id, session, livemode: false, status: BOOKED_LOAN_STATUS, planId: 'pay_in_4',
      principalCents: 25_000, feeCents: 0, totalCents: 25_000, currency: 'EUR', purchaseReference: 'order-7', customerEmail: 'jo@example.com',
    });
    await em.flush();
    expect((await read(token)).body).toMatchObject({ status: 'authorized', loan_id: loan.id });
  });
});

describe('cancel', () => {
  it.each(['initialized', 'eligible', 'ineligible'] as SessionStatus[])('from %s: 200 cancelled, cancelled_at stored, the cancelled signal queued', async (status) => {
    const token = await newSession();
    await setStored(token, { status });
    const res = await cancel(token);
    expect(res).toMatchObject({ status: 200, body: { session_token: token, status: 'cancelled' } });
    const session = await stored(token);
    expect(session.status).toBe('cancelled');
    expect(session.cancelledAt).toBeInstanceOf(Date);
    expect(await h.orm.em.fork().count(WorkflowOutboxEntry, { kind: 'signal', workflowId: widgetSessionWorkflowId((await stored(token)).id), signalName: 'cancelled' })).toBe(1);
  });

  it.each(['authorized', 'cancelled', 'expired'] as SessionStatus[])('from %s: 409 conflict, nothing changed, no signal', async (status) => {
    const token = await newSession();
    await setStored(token, { status });
    const before = await stored(token);
    const res = await cancel(token);
    expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: { error: { code: 'conflict', message: `The session is ${status} and cannot be cancelled.` } } });
    expect(await stored(token)).toMatchObject({ status, cancelledAt: before.cancelledAt, updatedAt: before.updatedAt });
    expect(await h.orm.em.fork().count(WorkflowOutboxEntry, { kind: 'signal', workflowId: widgetSessionWorkflowId((await stored(token)).id) })).toBe(0);
  });

  it('concurrent cancels of one session: exactly one 200, the others 409 (row lock)', async () => {
    const token = await newSession();
    const answers = await Promise.all(Array.from({ length: 6 }, () => cancel(token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await h.orm.em.fork().count(WorkflowOutboxEntry, { kind: 'signal', workflowId: widgetSessionWorkflowId((await stored(token)).id) })).toBe(1);
  });
});

describe('effective expiry before the workflow', () => {
  it('an open session past expires_at reads expired, cannot be cancelled, and is not changed by reading', async () => {
    const token = await newSession();
    await setStored(token, { status: 'eligible', expiresAt: new Date(Date.now() - 1_000) });
    expect((await read(token)).body.status).toBe('expired');
    expect(await cancel(token)).toMatchObject({ status: 409, body: { error: { message: 'The session is expired and cannot be cancelled.' } } });
    expect((await stored(token)).status).toBe('eligible');
  });

  it('an authorized or cancelled session past expires_at keeps its status', async () => {
    for (const status of ['authorized', 'cancelled'] as const) {
      const token = await newSession();
      await setStored(token, { status, expiresAt: new Date(Date.now() - 1_000) });
      expect((await read(token)).body.status).toBe(status);
    }
  });
});

describe('GraphQL: BnplMerchant.sessions', () => {
  const query = `query($first: Int) { bnplMerchant { sessions(first: $first) { id sessionToken status livemode amountCents currency orderReference customerEmail customerPhone purchaseDescription successUrl cancelUrl expiresAt createdAt authorizedAt cancelledAt } } }`;

  it('the merchant’s sessions, most recent first, bounded by first; effective status; either credential', async () => {
    const { shop: gqlShop, key } = await newShop('GraphQL Shop');
    const older = await newSession(key);
    const newer = await newSession(key, { ...cart, customer_email: null });
    await setStored(older, { expiresAt: new Date(Date.now() - 1_000) });
    await newSession(testKey);

    const { body } = await gql(h.service.url, query, { authorization: `Bearer ${gqlShop.token}` });
    expect(body.errors).toBeUndefined();
    const sessions = (body.data?.bnplMerchant as { sessions: Array<Record<string, unknown>> }).sessions;
    expect(sessions.map((s) => s.sessionToken)).toEqual([newer, older]);
    expect(sessions[0]).toMatchObject({ status: 'INITIALIZED', livemode: false, amountCents: 25_000, currency: 'EUR', orderReference: 'order-7', customerEmail: null, customerPhone: '+442071234567', purchaseDescription: 'A lamp', successUrl: cart.success_url, cancelUrl: cart.cancel_url, authorizedAt: null, cancelledAt: null });
    expect(sessions[1]).toMatchObject({ status: 'EXPIRED', customerEmail: 'jo@example.com' });

    const first = await gql(h.service.url, query, key.keys, { first: 1 });
    expect((first.body.data?.bnplMerchant as { sessions: Array<{ sessionToken: string }> }).sessions.map((s) => s.sessionToken)).toEqual([newer]);
  });

  it('first outside 1..100 is BAD_USER_INPUT naming first', async () => {
    for (const first of [0, 101, -1]) {
      const { body } = await gql(h.service.url, query, { authorization: `Bearer ${shop.token}` }, { first });
      expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', fields: { first: ['Must be an integer between 1 and 100.'] } } });
    }
  });

  it('refuses without credentials', async () => {
    const { body } = await gql(h.service.url, query, {});
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
