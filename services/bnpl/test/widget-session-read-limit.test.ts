// The polling limit of GET /api/v1/widget/sessions/{token}, per public key, over real HTTP: here 3 reads per
// 2-second window (BNPL_SESSION_READ_RATE_LIMIT, BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS) instead of the default 60 per minute.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { loadConfig } from '@tributary/kit';
import { bnplEnv } from '../src/service.js';
import { createApiKey, createMerchant, startHarness, type Harness, type TestApiKey } from './helpers.js';

let h: Harness;
let key: TestApiKey;
let other: TestApiKey;
let token: string;
const cart = { amount_cents: 9_900, currency: 'USD', order_reference: 'poll-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' };

beforeAll(async () => {
  h = await startHarness({ env: { BNPL_SESSION_READ_RATE_LIMIT: '3', BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS: '2' } });
  const shop = await createMerchant(h, 'Polling Shop');
  key = await createApiKey(h, shop, 'test');
  other = await createApiKey(h, shop, 'test');
  const res = await fetch(`${h.service.url}/api/v1/widget/sessions`, { method: 'POST', headers: { ...key.keys, 'content-type': 'application/json' }, body: JSON.stringify(cart) });
  token = ((await res.json()) as { session_token: string }).session_token;
});
afterAll(async () => {
  await h?.close();
});

const read = (headers: Record<string, string>) => fetch(`${h.service.url}/api/v1/widget/sessions/${token}`, { headers });

it('defaults to 60 reads per public key per 60 seconds', () => {
  const config = loadConfig(bnplEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@localhost/x' });
  expect([config.BNPL_SESSION_READ_RATE_LIMIT, config.BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS]).toEqual([60, 60]);
});

it('over budget a public key gets 429 rate_limited with Retry-After; other keys and cancel are not counted; the next window reads again', async () => {
  for (let i = 0; i < 3; i++) {
    const ok = await read(key.pk);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-limit')).toBe('3');
  }
  const refused = await read(key.pk);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited', retry_after_seconds: expect.any(Number) } });
  // Another key of the same merchant has its own budget; cancelling is not polling.
  expect((await read(other.pk)).status).toBe(200);
  expect((await fetch(`${h.service.url}/api/v1/widget/sessions/${token}/cancel`, { method: 'POST', headers: key.pk })).status).toBe(200);
  expect((await fetch(`${h.service.url}/api/v1/widget/sessions`, { method: 'POST', headers: { ...key.keys, 'content-type': 'application/json' }, body: JSON.stringify(cart) })).status).toBe(201);
  expect((await read(key.pk)).status).toBe(429);

  await new Promise((resolve) => setTimeout(resolve, 2_100));
  expect((await read(key.pk)).status).toBe(200);
});

it('a refused public key is a 401 before any budget is spent', async () => {
  const res = await read({ 'x-merchant-public-key': `pk_test_${'N'.repeat(32)}` });
  expect(res.status).toBe(401);
  expect(res.headers.get('ratelimit-limit')).toBeNull();
});
