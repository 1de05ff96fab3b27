// The spec's Limits: merchant API 120 requests/min per key, public payer endpoint 60/min per client IP, 429
// {"message":"Too Many Attempts."} with Retry-After; counters in memory by default, in Redis with REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createLogger, loadConfig } from '@tributary/kit';
import { testRedisUrl } from '@tributary/kit/testing';
import { Redis } from 'ioredis';
import { DEMO_API_KEY, seedDemoData } from '../src/seed.js';
import { cryptoEnv, startService, type RunningCryptoService } from '../src/service.js';
import { createMerchant, startHarness, type Harness } from './helpers.js';

const accountPath = '/api/merchant/v1/account';
const headers = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });

async function createKey(h: Harness): Promise<string> {
  return (await createMerchant(h, `rate ${randomUUID()}`)).key;
}

/** Sends `count` requests one after another and returns their status codes. */
async function statuses(count: number, send: () => Promise<Response>): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send();
    await res.arrayBuffer();
    codes.push(res.status);
  }
  return codes;
}

async function expectTooManyAttempts(res: Response, windowSeconds: number): Promise<void> {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ message: 'Too Many Attempts.' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('rate limits, in-memory counters (the spec defaults: 120/min per key, 60/min per IP)', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness();
    url = h.service.url;
    await seedDemoData(h.orm.em.fork());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the 121st merchant request of a key in a minute answers 429; another key keeps its own budget', async () => {
    const first = await createKey(h);
    const second = await createKey(h);
    const codes = await statuses(120, () => fetch(`${url}${accountPath}`, { headers: headers(first) }));
    expect(codes.every((code) => code === 200)).toBe(true);
    await expectTooManyAttempts(await fetch(`${url}${accountPath}`, { headers: headers(first) }), 60);
    const other = await fetch(`${url}${accountPath}`, { headers: headers(second) });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-limit')).toBe('120');
    expect(other.headers.get('ratelimit-remaining')).toBe('119');
  });

  it('requests without a valid key are limited per client IP (120/min) and still answer 401 below the limit', async () => {
    const codes = await statuses(120, () => fetch(`${url}${accountPath}`, { headers: headers(`ck_${'x'.repeat(24)}.${'y'.repeat(48)}`) }));
    expect(codes.every((code) => code === 401)).toBe(true);
    await expectTooManyAttempts(await fetch(`${url}${accountPath}`, { headers: { accept: 'application/json' } }), 60);
    // Authenticated traffic from the same IP is counted per key, not by the IP's exhausted budget.
    expect((await fetch(`${url}${accountPath}`, { headers: headers(DEMO_API_KEY) })).status).toBe(200);
  });

  it('the public payer endpoint allows 60 requests per minute per IP, unknown slugs included', async () => {
    const codes = await statuses(60, () => fetch(`${url}/api/pay/unknown-${randomUUID()}`, { headers: { accept: 'application/json' } }));
    expect(codes.every((code) => code === 404)).toBe(true);
    await expectTooManyAttempts(await fetch(`${url}/api/pay/another-slug`, { headers: { accept: 'application/json' } }), 60);
  });

  it('the hosted page has its own 60/min per IP bucket', async () => {
    const codes = await statuses(60, () => fetch(`${url}/pay/unknown-${randomUUID()}`, { headers: { accept: 'application/json' } }));
    expect(codes.every((code) => code === 404)).toBe(true);
    await expectTooManyAttempts(await fetch(`${url}/pay/x`, { headers: { accept: 'application/json' } }), 60);
    // Probes and other paths are not limited.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});

describe('rate limits on the subgraph /graphql (the merchant budgets, shared with REST)', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness();
    url = h.service.url;
  });
  afterAll(async () => {
    await h?.close();
  });
  const graphql = (query: string, extra: Record<string, string> = {}) =>
    fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify({ query }) });

  async function expectGraphqlRateLimited(res: Response): Promise<void> {
    // 200 like every other subgraph refusal, so the gateway passes the error through; Retry-After for direct callers.
    expect(res.status).toBe(200);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(await res.json()).toEqual({ errors: [{ message: 'Too Many Attempts.', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter } }] });
  }

  it('one budget of 120 per key across REST and GraphQL; the 121st request is refused on both', async () => {
    const key = await createKey(h);
    const rest = await statuses(60, () => fetch(`${url}${accountPath}`, { headers: headers(key) }));
    expect(rest.every((code) => code === 200)).toBe(true);
    for (let i = 0; i < 60; i++) {
      const res = await graphql('{ cryptoAccount { name } }', { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { cryptoAccount: { name: string } } }).data.cryptoAccount.name).toMatch(/^rate /);
    }
    await expectGraphqlRateLimited(await graphql('{ cryptoAccount { name } }', { authorization: `Bearer ${key}` }));
    await expectTooManyAttempts(await fetch(`${url}${accountPath}`, { headers: headers(key) }), 60);
    // Another key is untouched.
    const other = await graphql('{ cryptoAccount { name } }', { authorization: `Bearer ${await createKey(h)}` });
    expect(((await other.json()) as { data: unknown }).data).toEqual({ cryptoAccount: { name: expect.stringMatching(/^rate /) } });
  });

  it('wrong credentials are counted per client IP (and answered UNAUTHENTICATED below the limit)', async () => {
    const wrong = { authorization: `Bearer ck_${'x'.repeat(24)}.${'y'.repeat(48)}` };
    for (let i = 0; i < 120; i++) {
      const body = (await (await graphql('{ cryptoAccount { name } }', wrong)).json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    }
    await expectGraphqlRateLimited(await graphql('{ cryptoAccount { name } }', wrong));
  });

  it('a request without any Authorization header is not counted (behind the gateway all dashboards share one IP)', async () => {
    // More than the per-IP budget of 120, and each still gets its own answer rather than RATE_LIMITED.
    const codes: string[] = [];
    for (let i = 0; i < 130; i++) {
      const body = (await (await graphql('{ cryptoAccount { name } }')).json()) as { errors: { extensions: { code: string } }[] };
      codes.push(body.errors[0]!.extensions.code);
    }
    expect(new Set(codes)).toEqual(new Set(['UNAUTHENTICATED']));
  });
});

describe('rate limits, counters in Redis shared by two instances', () => {
  const redisUrl = testRedisUrl();
  const prefix = `tributary-test:crypto-rl:${randomUUID()}`;
  const env = { REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
  let h: Harness;
  let second: RunningCryptoService;

  beforeAll(async () => {
    h = await startHarness({ env });
    await seedDemoData(h.orm.em.fork());
    // A second instance of the service on the same database and the same Redis.
    const config = loadConfig(cryptoEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233', ...env });
    second = await startService({ ...config, PORT: 0 }, createLogger({ service: 'crypto', level: 'silent' }));
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
    // Only this suite's own keys.
    const admin = new Redis(redisUrl);
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}:*`, count: 100 }) as AsyncIterable<string[]>) keys.push(...batch);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('120 requests spread over both instances exhaust one budget', async () => {
    const key = await createKey(h);
    const urls = [h.service.url, second.url];
    let i = 0;
    const codes = await statuses(120, () => fetch(`${urls[i++ % 2]}${accountPath}`, { headers: headers(key) }));
    expect(codes.every((code) => code === 200)).toBe(true);
    await expectTooManyAttempts(await fetch(`${urls[0]}${accountPath}`, { headers: headers(key) }), 60);
    await expectTooManyAttempts(await fetch(`${urls[1]}${accountPath}`, { headers: headers(key) }), 60);
    const admin = new Redis(redisUrl);
    try {
      expect((await admin.keys(`${prefix}:crypto:merchant:key:*`)).length).toBe(1);
    } finally {
      await admin.quit();
    }
  });
});

describe('rate limits, configured window and budget (CRYPTO_RATE_LIMIT_WINDOW_SECONDS, CRYPTO_PUBLIC_RATE_LIMIT)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CRYPTO_RATE_LIMIT_WINDOW_SECONDS: '2', CRYPTO_PUBLIC_RATE_LIMIT: '1' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the budget comes back when the window ends (after Retry-After)', async () => {
    const path = `${h.service.url}/api/pay/some-slug`;
    expect((await fetch(path)).status).toBe(404);
    const limited = await fetch(path);
    await expectTooManyAttempts(limited, 2);
    await new Promise((resolve) => setTimeout(resolve, Number(limited.headers.get('retry-after')) * 1_000 + 100));
    expect((await fetch(path)).status).toBe(404);
  });
});
