// Rate limits of the dashboard login (decided, README "Decisions"): login and code verification, each per e-mail and
// per client IP, 429 in bnpl's envelope with Retry-After; counters in memory, or in Redis shared by every instance.
// TRUST_PROXY=loopback lets each request name its client IP in X-Forwarded-For, so one test plays several clients.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createLogger, loadConfig, sha256Hex } from '@tributary/kit';
import { startServiceHarness, testRedisUrl, testTemporalAddress, type ServiceHarness } from '@tributary/kit/testing';
import { Redis } from 'ioredis';
import { bnplEnv, bnplService, startService, type RunningBnplService } from '../src/service.js';

const LIMITS = {
  TRUST_PROXY: 'loopback',
  BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: '3',
  BNPL_LOGIN_RATE_LIMIT_PER_IP: '5',
  BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: '3',
  BNPL_VERIFY_RATE_LIMIT_PER_IP: '5',
};

const email = () => `rl-${randomUUID()}@shop.test`;
const ip = () => `203.0.113.${Math.floor(Math.random() * 254) + 1}`;
let ipCounter = 0;
/** A client IP no other test uses. */
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

function send(base: string, step: 'login' | 'verify', address: string, from: string): Promise<Response> {
  const body = step === 'login' ? { email: address, password: 'not the password' } : { email: address, code: '000000' };
  const path = step === 'login' ? '/api/v1/merchant/auth/login' : '/api/v1/merchant/auth/otp/verify';
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify(body) });
}

async function expectTooManyAttempts(res: Response, windowSeconds: number): Promise<number> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
  expect(await res.json()).toEqual({ error: { code: 'rate_limited', message: 'Too Many Attempts.', retry_after_seconds: retryAfter } });
  return retryAfter;
}

async function expectUnauthenticated(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  await res.arrayBuffer();
}

describe.each(['login', 'verify'] as const)('%s limits, in-memory counters', (step) => {
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await startServiceHarness(bnplService, { env: LIMITS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('per e-mail (3 per window, whatever the client IP and the letter case): the 4th answers 429; another e-mail is not affected', async () => {
    const address = email();
    for (let i = 0; i < 3; i += 1) await expectUnauthenticated(await send(h.service.url, step, address, freshIp()));
    await expectTooManyAttempts(await send(h.service.url, step, address.toUpperCase(), freshIp()), 900);
    await expectUnauthenticated(await send(h.service.url, step, email(), freshIp()));
  });

  it('per client IP (5 per window, whatever the e-mail): the 6th answers 429; another IP is not affected', async () => {
    const client = freshIp();
    for (let i = 0; i < 5; i += 1) await expectUnauthenticated(await send(h.service.url, step, email(), client));
    await expectTooManyAttempts(await send(h.service.url, step, email(), client), 900);
    // A body without a usable e-mail still counts against the IP.
    const malformed = await fetch(`${h.service.url}/api/v1/merchant/auth/${step === 'login' ? 'login' : 'otp/verify'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: '{}',
    });
    await expectTooManyAttempts(malformed, 900);
    await expectUnauthenticated(await send(h.service.url, step, email(), freshIp()));
  });
});

describe('login and verify count separately', () => {
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await startServiceHarness(bnplService, { env: LIMITS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("an e-mail's exhausted login budget leaves its verify budget whole, and other routes are not limited", async () => {
    const address = email();
    for (let i = 0; i < 3; i += 1) await expectUnauthenticated(await send(h.service.url, 'login', address, freshIp()));
    await expectTooManyAttempts(await send(h.service.url, 'login', address, freshIp()), 900);
    await expectUnauthenticated(await send(h.service.url, 'verify', address, freshIp()));
    const keys = await fetch(`${h.service.url}/api/v1/merchant/api-keys`);
    expect(keys.status).toBe(401);
    expect(keys.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('configured window (BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS)', () => {
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await startServiceHarness(bnplService, { env: { ...LIMITS, BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS: '1', BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: '1' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the budget comes back when the window ends (after Retry-After)', async () => {
    const address = email();
    await expectUnauthenticated(await send(h.service.url, 'verify', address, ip()));
    const retryAfter = await expectTooManyAttempts(await send(h.service.url, 'verify', address, ip()), 1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1_000 + 100));
    await expectUnauthenticated(await send(h.service.url, 'verify', address, ip()));
  });
});

describe('counters in Redis, shared by two instances', () => {
  const redisUrl = testRedisUrl();
  const prefix = `tributary-test:bnpl-rl:${randomUUID()}`;
  const env = { ...LIMITS, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
  let h: ServiceHarness;
  let second: RunningBnplService;

  beforeAll(async () => {
    h = await startServiceHarness(bnplService, { env });
    const config = loadConfig(bnplEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: testTemporalAddress(), ...env });
    second = await startService({ ...config, PORT: 0 }, createLogger({ service: 'bnpl', level: 'silent' }));
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
    const admin = new Redis(redisUrl);
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}:*`, count: 100 }) as AsyncIterable<string[]>) keys.push(...batch);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it("one e-mail's budget spread over both instances; Redis holds its SHA-256, never the address", async () => {
    const address = email();
    const urls = [h.service.url, second.url];
    for (let i = 0; i < 3; i += 1) await expectUnauthenticated(await send(urls[i % 2]!, 'verify', address, freshIp()));
    await expectTooManyAttempts(await send(urls[1]!, 'verify', address, freshIp()), 900);
    await expectTooManyAttempts(await send(urls[0]!, 'verify', address, freshIp()), 900);
    const admin = new Redis(redisUrl);
    try {
      const keys = await admin.keys(`${prefix}:bnpl:verify-email:*`);
      expect(keys).toEqual([`${prefix}:bnpl:verify-email:email:${sha256Hex(address)}`]);
      expect((await admin.keys(`${prefix}:*`)).join('\n')).not.toContain(address);
    } finally {
      await admin.quit();
    }
  });
});

describe('defaults', () => {
  it('login and verify: 10 per e-mail and 100 per client IP in 15-minute windows', () => {
    const config = loadConfig(bnplEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@127.0.0.1/x' });
    expect(config).toMatchObject({
      BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS: 900,
      BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: 10,
      BNPL_LOGIN_RATE_LIMIT_PER_IP: 100,
      BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: 10,
      BNPL_VERIFY_RATE_LIMIT_PER_IP: 100,
    });
    expect(config.REDIS_URL).toBeUndefined();
  });
});
