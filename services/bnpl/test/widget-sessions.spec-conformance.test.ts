// The spec's widget session and installment plan tables, as tests over real HTTP against the real service and database:
// exact paths, methods, auth flavors (KEYS, PK, DT), status codes, headers and fields.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PLAN_CATALOGUE } from '../src/modules/plans/index.js';
import { SESSION_STATUSES } from '../src/modules/widget-sessions/index.js';
import { createApiKey, createMerchant, startHarness, type Harness, type TestApiKey, type TestMerchant } from './helpers.js';

const PUBLIC_BASE_URL = 'https://bnpl.example.test';
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let h: Harness;
let merchant: TestMerchant;
let key: TestApiKey;

beforeAll(async () => {
  h = await startHarness({ env: { PUBLIC_BASE_URL: `${PUBLIC_BASE_URL}/` } });
  merchant = await createMerchant(h, 'Spec Shop');
  key = await createApiKey(h, merchant, 'test');
});
afterAll(async () => {
  await h?.close();
});

const json = { 'content-type': 'application/json' };
const dt = () => ({ authorization: `Bearer ${merchant.token}` });
const cart = {
  amount_cents: 25_000,
  currency: 'USD',
  order_reference: 'order-1001',
  customer_email: 'shopper@example.com',
  customer_phone: '+14155550123',
  purchase_description: 'Two pairs of shoes',
  success_url: 'https://shop.example/thanks',
  cancel_url: 'https://shop.example/cart',
};

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${h.service.url}${path}`, { method, headers: body === undefined ? headers : { ...headers, ...json }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const createSession = () => call('POST', '/api/v1/widget/sessions', key.keys, cart);

describe('POST /api/v1/widget/sessions (KEYS)', () => {
  it('201: session_token (ws_…), checkout_url containing the token, expires_at (ISO 8601 UTC), nothing else', async () => {
    const before = Date.now();
    const res = await createSession();
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['checkout_url', 'expires_at', 'session_token']);
    const token = res.body.session_token as string;
    expect(token).toMatch(/^ws_[A-Za-z0-9]{32}$/);
    // PUBLIC_BASE_URL (its trailing slash dropped) + /checkout/<token>.
    expect(res.body.checkout_url).toBe(`${PUBLIC_BASE_URL}/checkout/${token}`);
    expect(res.body.expires_at).toMatch(ISO_UTC);
    const lifetime = Date.parse(res.body.expires_at as string) - before;
    expect(lifetime).toBeGreaterThan(30 * 60_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect(res.headers.get('location')).toBe(`/api/v1/widget/sessions/${token}`);
  });

  it('the required fields alone are enough (amount_cents, currency, order_reference, success_url, cancel_url)', async () => {
    const { amount_cents, currency, order_reference, success_url, cancel_url } = cart;
    expect((await call('POST', '/api/v1/widget/sessions', key.keys, { amount_cents, currency, order_reference, success_url, cancel_url })).status).toBe(201);
  });

  it('401 without the full pair: public key alone, secret alone, dashboard token', async () => {
    for (const headers of [key.pk, { authorization: `Bearer ${key.secretKey}` }, dt()]) {
      const res = await call('POST', '/api/v1/widget/sessions', headers, cart);
      expect({ status: res.status, body: res.body, challenge: res.headers.get('www-authenticate') }).toEqual({ status: 401, body: UNAUTHENTICATED, challenge: 'Bearer' });
    }
  });
});

describe('GET /api/v1/widget/sessions/{token} (PK)', () => {
  it('200: session_token, amount_cents, currency, merchant {id, name}, status, expires_at, plus order_reference, livemode, loan_id', async () => {
    const created = await createSession();
    const token = created.body.session_token as string;
    const res = await call('GET', `/api/v1/widget/sessions/${token}`, key.pk);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_token: token,
      amount_cents: 25_000,
      currency: 'USD',
      merchant: { id: merchant.merchant.id, name: 'Spec Shop' },
      status: 'initialized',
      expires_at: created.body.expires_at,
      order_reference: 'order-1001',
      livemode: false,
      loan_id: null,
    });
    expect(SESSION_STATUSES).toContain(res.body.status);
  });

  it('401 without a public key; 404 for an unknown token', async () => {
    const token = (await createSession()).body.session_token as string;
    expect(await call('GET', `/api/v1/widget/sessions/${token}`, {})).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect(await call('GET', `/api/v1/widget/sessions/ws_${'0'.repeat(32)}`, key.pk)).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });
});

describe('POST /api/v1/widget/sessions/{token}/cancel (PK)', () => {
  it('200 with the session read body, status cancelled; 409 conflict the second time', async () => {
    const token = (await createSession()).body.session_token as string;
    const res = await call('POST', `/api/v1/widget/sessions/${token}/cancel`, key.pk);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session_token: token, status: 'cancelled', merchant: { id: merchant.merchant.id, name: 'Spec Shop' }, loan_id: null });
    const again = await call('POST', `/api/v1/widget/sessions/${token}/cancel`, key.pk);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'conflict', message: 'The session is cancelled and cannot be cancelled.' } } });
  });

  it('401 without a public key', async () => {
    const token = (await createSession()).body.session_token as string;
    expect(await call('POST', `/api/v1/widget/sessions/${token}/cancel`, {})).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });
});

describe('GET /api/v1/merchant/plans (DT)', () => {
  it('200: configured [{plan, is_enabled}] for every catalogue plan and available [...] describing each plan', async () => {
    const res = await call('GET', '/api/v1/merchant/plans', dt());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['available', 'configured']);
    expect(res.body.configured).toEqual([
      { plan: 'pay_in_4', is_enabled: true },
      { plan: 'monthly_3', is_enabled: false },
      { plan: 'monthly_6', is_enabled: false },
      { plan: 'monthly_12', is_enabled: false },
    ]);
    expect(res.body.available).toEqual([
      { plan: 'pay_in_4', name: 'Pay in 4', installment_count: 4, interval: 'day', interval_count: 14, first_due: 'at_checkout', fee_bps: 0, min_amount_cents: 5_000, max_amount_cents: 100_000, enabled_by_default: true },
      { plan: 'monthly_3', name: '3 monthly payments', installment_count: 3, interval: 'month', interval_count: 1, first_due: 'after_one_interval', fee_bps: 0, min_amount_cents: 10_000, max_amount_cents: 300_000, enabled_by_default: false },
      { plan: 'monthly_6', name: '6 monthly payments', installment_count: 6, interval: 'month', interval_count: 1, first_due: 'after_one_interval', fee_bps: 600, min_amount_cents: 20_000, max_amount_cents: 500_000, enabled_by_default: false },
      { plan: 'monthly_12', name: '12 monthly payments', installment_count: 12, interval: 'month', interval_count: 1, first_due: 'after_one_interval', fee_bps: 1_200, min_amount_cents: 50_000, max_amount_cents: 1_000_000, enabled_by_default: false },
    ]);
    expect((res.body.available as unknown[]).length).toBe(PLAN_CATALOGUE.length);
  });

  it('401 with the API key pair instead of a dashboard token', async () => {
    expect(await call('GET', '/api/v1/merchant/plans', key.keys)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });
});

describe('PUT /api/v1/merchant/plans/{plan_id} (DT)', () => {
  it('JSON {is_enabled: boolean} → 200 with the configured entry; GET shows it', async () => {
    const res = await call('PUT', '/api/v1/merchant/plans/monthly_6', dt(), { is_enabled: true });
    expect(res).toMatchObject({ status: 200, body: { plan: 'monthly_6', is_enabled: true } });
    expect(Object.keys(res.body).sort()).toEqual(['is_enabled', 'plan']);
    const list = await call('GET', '/api/v1/merchant/plans', dt());
    expect(list.body.configured).toContainEqual({ plan: 'monthly_6', is_enabled: true });
  });

  it('404 for an unknown plan, 422 for a non-boolean is_enabled, 401 without a dashboard token', async () => {
    expect(await call('PUT', '/api/v1/merchant/plans/pay_in_40', dt(), { is_enabled: true })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await call('PUT', '/api/v1/merchant/plans/monthly_3', dt(), { is_enabled: 'yes' })).toMatchObject({ status: 422, body: { error: { code: 'validation_failed', fields: { is_enabled: ['Must be true or false.'] } } } });
    expect(await call('PUT', '/api/v1/merchant/plans/monthly_3', key.keys, { is_enabled: true })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });
});
