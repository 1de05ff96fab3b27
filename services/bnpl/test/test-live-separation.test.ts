// Test and live data never mix (README Decisions, "Test or live key"): every path an API key reaches answers only its
// own mode's objects. A test key (sk_test_/pk_test_) sees no live session or key, a live key no test one; the dashboard
// token sees both, each object saying its mode. What the spec gives the dashboard token alone (sales, loans, refunds,
// settlements, payment links, webhooks, the test clock, exports) refuses a key pair outright, in REST and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, createMerchant, gql, startHarness, type Harness, type TestApiKey, type TestMerchant } from './helpers.js';

const SESSIONS = '/api/v1/widget/sessions';
const cart = { amount_cents: 12_000, currency: 'USD', order_reference: 'mode', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };

let h: Harness;
let shop: TestMerchant;
let keys: Record<'test' | 'live', TestApiKey>;
let sessions: Record<'test' | 'live', string>;

async function createSession(key: TestApiKey): Promise<string> {
  const res = await fetch(`${h.service.url}${SESSIONS}`, { method: 'POST', headers: { ...key.keys, 'content-type': 'application/json' }, body: JSON.stringify(cart) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { session_token: string };
  return body.session_token;
}

beforeAll(async () => {
  h = await startHarness();
  shop = await createMerchant(h, 'Two Modes Shop');
  keys = { test: await createApiKey(h, shop, 'test'), live: await createApiKey(h, shop, 'live') };
  sessions = { test: await createSession(keys.test), live: await createSession(keys.live) };
});
afterAll(async () => {
  await h?.close();
});

const other = { test: 'live', live: 'test' } as const;
const modes = ['test', 'live'] as const;

describe.each(modes)('a %s key', (mode) => {
  it("REST: reads and cancels its own mode's session; the other mode's is 404 and stays untouched", async () => {
    const read = (token: string) => fetch(`${h.service.url}${SESSIONS}/${token}`, { headers: keys[mode].pk });
    const own = await read(sessions[mode]);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { livemode: boolean }).livemode).toBe(mode === 'live');
    expect((await read(sessions[other[mode]])).status).toBe(404);
    const cancel = await fetch(`${h.service.url}${SESSIONS}/${sessions[other[mode]]}/cancel`, { method: 'POST', headers: keys[mode].pk });
    expect(cancel.status).toBe(404);
    const untouched = await fetch(`${h.service.url}${SESSIONS}/${sessions[other[mode]]}`, { headers: keys[other[mode]].pk });
    expect(((await untouched.json()) as { status: string }).status).toBe('initialized');
  });

  it("GraphQL: bnplMerchant.sessions and apiKeys hold only its own mode's objects", async () => {
    const { body } = await gql(h.service.url, '{ bnplMerchant { sessions(first: 100) { sessionToken livemode } apiKeys { publicKey environment } } }', keys[mode].keys);
    expect(body.errors).toBeUndefined();
    const merchant = body.data!.bnplMerchant as { sessions: Array<{ sessionToken: string; livemode: boolean }>; apiKeys: Array<{ publicKey: string; environment: string }> };
    expect(merchant.sessions).toEqual([{ sessionToken: sessions[mode], livemode: mode === 'live' }]);
    expect(merchant.apiKeys).toEqual([{ publicKey: keys[mode].publicKey, environment: mode }]);
  });

  it.each([
    'loans { id }',
    'sales { nextCursor }',
    'refunds { nextCursor }',
    'settlements { nextCursor }',
    'paymentLinks { id }',
    'webhookEndpoints { id }',
    'webhookDeliveries { id }',
    'testClock { offsetSeconds }',
  ])('GraphQL: bnplMerchant { %s } is the dashboard token’s alone (FORBIDDEN)', async (selection) => {
    const { body } = await gql(h.service.url, `{ bnplMerchant { ${selection} } }`, keys[mode].keys);
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it.each(['/api/v1/merchant/sales', '/api/v1/merchant/sales/export.csv', '/api/v1/merchant/refunds', '/api/v1/merchant/settlements', '/api/v1/merchant/payment-links', '/api/v1/merchant/webhooks', '/api/v1/merchant/api-keys'])(
    'REST: %s refuses the key pair (the dashboard token’s alone)',
    async (path) => {
      const res = await fetch(`${h.service.url}${path}`, { headers: keys[mode].keys });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    },
  );
});

describe('the dashboard token', () => {
  it('sees both modes, each object saying which', async () => {
    const { body } = await gql(h.service.url, '{ bnplMerchant { sessions(first: 100) { sessionToken livemode } apiKeys { environment } } }', { authorization: `Bearer ${shop.token}` });
    const merchant = body.data!.bnplMerchant as { sessions: Array<{ sessionToken: string; livemode: boolean }>; apiKeys: Array<{ environment: string }> };
    expect(merchant.sessions.map((s) => [s.sessionToken, s.livemode]).sort()).toEqual(modes.map((m) => [sessions[m], m === 'live']).sort());
    expect(merchant.apiKeys.map((k) => k.environment).sort()).toEqual(['live', 'test']);
  });
});
