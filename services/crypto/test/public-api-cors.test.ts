// CORS of the public payer endpoint (custom checkouts read it from the merchant's site in the payer's browser), over
// real HTTP: every answer of /api/pay/* allows any origin (404 and 429 included), preflights are answered without
// spending the per-IP budget, and the merchant API never answers with CORS headers.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { DEMO_API_KEY, seedDemoData } from '../src/seed.js';
import { createMerchant, createRequest, startHarness, type Harness } from './helpers.js';

const ORIGIN = 'https://shop.example';
const PUBLIC_LIMIT = 5;
let h: Harness;
let slug: string;

beforeAll(async () => {
  // A small public budget so the 429 is reached quickly; the window is long enough not to reset mid-test.
  h = await startHarness({ env: { CRYPTO_PUBLIC_RATE_LIMIT: String(PUBLIC_LIMIT), CRYPTO_RATE_LIMIT_WINDOW_SECONDS: '600' } });
  await seedDemoData(h.orm.em.fork());
  const { accountId } = await createMerchant(h, 'Checkout shop');
  slug = (await createRequest(new PaymentRequestService(h.orm.em.fork()), { accountId, apiKeyId: 0 }, { asset_id: 1, title: 'Checkout', amount: '0.1' })).slug;
});
afterAll(async () => {
  await h?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.service.url}${path}`, { headers: { origin: ORIGIN, accept: 'application/json', ...headers } });
const preflight = (path: string) =>
  fetch(`${h.service.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
  });

describe('CORS on the public payer endpoint', () => {
  it('answers a preflight with 204 and the allowed methods, headers and cache time, without counting it', async () => {
    for (let i = 0; i < PUBLIC_LIMIT + 3; i++) {
      const res = await preflight(`/api/pay/${slug}`);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
      expect(res.headers.get('access-control-allow-headers')).toBe('Accept,Content-Type');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
    }
  });

  it('lets any origin read the request, a 404, and finally the 429 with Retry-After exposed', async () => {
    const ok = await get(`/api/pay/${slug}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toBe('Retry-After,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,X-Request-Id');
    expect(((await ok.json()) as { id: string }).id).toBe(slug);
    // Remaining budget after the preflights: PUBLIC_LIMIT - 1 (the preflights above were not counted).
    expect(ok.headers.get('ratelimit-remaining')).toBe(String(PUBLIC_LIMIT - 1));

    const missing = await get('/api/pay/Zz0000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(await missing.json()).toEqual({ message: 'Not found.' });

    let last: Response = missing;
    for (let i = 0; i < PUBLIC_LIMIT; i++) last = await get(`/api/pay/${slug}`);
    expect(last.status).toBe(429);
    expect(last.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await last.json()).toEqual({ message: 'Too Many Attempts.' });
  });

  it('the merchant API carries no CORS headers, to a request or to a preflight', async () => {
    const listed = await get('/api/merchant/v1/payment-requests', { authorization: `Bearer ${DEMO_API_KEY}` });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight('/api/merchant/v1/payment-requests');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
  });
});
