// The spec's tables that span the service (bnpl-merchant-service.md "Endpoints", "Authentication", "Events", "Limits"),
// as tests over real HTTP against the real service: every endpoint of part 1 is served at its exact path and method
// behind the auth flavor the table names, and the event catalogue and retry schedule are exactly the spec's. The
// per-resource tables (fields, statuses, codes) are in each area's own tests (widget-sessions.spec-conformance,
// payment-links, webhook-endpoints, auth-login, checkout). Sales, refunds and settlements are part 2.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WEBHOOK_SCHEDULES } from '@tributary/workflows';
import { LOAN_STATUSES } from '../src/modules/loans/index.js';
import { EMITTED_WEBHOOK_EVENTS, RESERVED_WEBHOOK_EVENTS } from '../src/modules/webhooks/index.js';
import { SESSION_STATUSES } from '../src/modules/widget-sessions/index.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
const SOME_ID = '00000000-0000-4000-8000-000000000000';
const SOME_TOKEN = `ws_${'A'.repeat(32)}`;

/** The spec's Endpoints table, rows of part 1: method, path (ids filled in), auth flavor. */
const ENDPOINTS: ReadonlyArray<[string, string, 'none' | 'DT' | 'KEYS' | 'PK']> = [
  ['POST', '/api/v1/merchant/auth/login', 'none'],
  ['POST', '/api/v1/merchant/auth/otp/verify', 'none'],
  ['POST', '/api/v1/merchant/api-keys', 'DT'],
  ['GET', '/api/v1/merchant/api-keys', 'DT'],
  ['DELETE', `/api/v1/merchant/api-keys/${SOME_ID}`, 'DT'],
  ['POST', '/api/v1/widget/sessions', 'KEYS'],
  ['GET', `/api/v1/widget/sessions/${SOME_TOKEN}`, 'PK'],
  ['POST', `/api/v1/widget/sessions/${SOME_TOKEN}/cancel`, 'PK'],
  ['POST', '/api/v1/merchant/payment-links', 'DT'],
  ['GET', '/api/v1/merchant/payment-links', 'DT'],
  ['GET', `/api/v1/merchant/payment-links/${SOME_ID}`, 'DT'],
  ['PUT', `/api/v1/merchant/payment-links/${SOME_ID}`, 'DT'],
  ['DELETE', `/api/v1/merchant/payment-links/${SOME_ID}`, 'DT'],
  ['GET', '/api/v1/merchant/plans', 'DT'],
  ['PUT', '/api/v1/merchant/plans/pay_in_4', 'DT'],
  ['POST', '/api/v1/merchant/webhooks', 'DT'],
  ['GET', '/api/v1/merchant/webhooks', 'DT'],
  ['PUT', `/api/v1/merchant/webhooks/${SOME_ID}`, 'DT'],
  ['DELETE', `/api/v1/merchant/webhooks/${SOME_ID}`, 'DT'],
];

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const withBody = method === 'POST' || method === 'PUT';
  const res = await fetch(`${h.service.url}${path}`, { method, headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers, body: withBody ? '{}' : undefined });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('Endpoints table (part 1)', () => {
  it.each(ENDPOINTS.filter(([, , auth]) => auth !== 'none'))('%s %s (%s) answers the one 401 without credentials', async (method, path) => {
    expect(await call(method, path)).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  it.each(ENDPOINTS.filter(([, , auth]) => auth === 'none'))('%s %s needs no credentials: an empty body is a 422 naming the fields', async (method, path) => {
    const { status, body } = await call(method, path);
    expect(status).toBe(422);
    expect(body).toMatchObject({ error: { code: 'validation_failed' } });
  });

  it('a dashboard token is not an API key pair and a secret key is not a dashboard token', async () => {
    const dt = { authorization: `Bearer dt_${'A'.repeat(48)}` };
    expect(await call('POST', '/api/v1/widget/sessions', dt)).toEqual({ status: 401, body: UNAUTHENTICATED });
    expect(await call('GET', '/api/v1/merchant/api-keys', { authorization: `Bearer sk_test_${'A'.repeat(48)}`, 'x-merchant-public-key': `pk_test_${'A'.repeat(32)}` })).toEqual({ status: 401, body: UNAUTHENTICATED });
  });
});

describe('Events table', () => {
  it('emits exactly the six events of the table and accepts the seven reserved names for subscription only', () => {
    expect([...EMITTED_WEBHOOK_EVENTS].sort()).toEqual(['installment.missed', 'installment.paid', 'loan.authorized', 'loan.completed', 'loan.funded', 'settlement.processed']);
    expect([...RESERVED_WEBHOOK_EVENTS].sort()).toEqual(['dispute.opened', 'dispute.resolved', 'installment.due', 'loan.cancelled', 'order.created', 'refund.completed', 'refund.requested']);
  });

  it('retries after 1 m, 5 m, 15 m, 30 m, 1 h, 2 h, 4 h and 8 h, 15 s per attempt (tail 15 h 51 min)', () => {
    const minute = 60_000;
    expect(WEBHOOK_SCHEDULES.bnpl.delaysMs).toEqual([0, 1, 5, 15, 30, 60, 120, 240, 480].map((m) => m * minute));
    expect(WEBHOOK_SCHEDULES.bnpl.attemptTimeoutMs).toBe(15_000);
    expect(WEBHOOK_SCHEDULES.bnpl.delaysMs.reduce((a, b) => a + b, 0)).toBe((15 * 60 + 51) * minute);
  });
});

describe('States', () => {
  it('session and loan statuses are exactly the spec values', () => {
    expect(SESSION_STATUSES).toEqual(['initialized', 'eligible', 'ineligible', 'authorized', 'cancelled', 'expired']);
    expect(LOAN_STATUSES).toEqual(['pending', 'approved', 'funded', 'active', 'paid_off', 'in_arrears', 'defaulted', 'written_off', 'cancelled']);
  });
});
