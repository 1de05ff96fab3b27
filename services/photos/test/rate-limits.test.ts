// Rate limits over real HTTP (README "Decisions": rate limits): per token a general bucket and a separate upload bucket
// (POST /api/v1/photos), so a device draining an upload backlog never blocks bootstrap or heartbeat; login per e-mail
// and per client IP; 429 in the service's envelope with Retry-After; counters in Redis when REDIS_URL is set.
// TRUST_PROXY=loopback lets each request name its client IP in X-Forwarded-For, so one test plays several clients.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createLogger, loadConfig } from '@tributary/kit';
import { otherSpellings, testRedisUrl, testTemporalAddress } from '@tributary/kit/testing';
import { Redis } from 'ioredis';
import { AccessToken, hashAccessToken } from '../src/modules/auth/index.js';
import { photosEnv, startService, type RunningPhotosService } from '../src/service.js';
import { createTeam, startHarness, type Harness } from './helpers.js';

const PASSWORD = 'rate limited password';
const LIMITS = {
  TRUST_PROXY: 'loopback',
  PHOTOS_RATE_LIMIT_PER_MINUTE: '5',
  PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: '3',
  PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: '3',
  PHOTOS_LOGIN_RATE_LIMIT_PER_IP: '4',
};
let ipCounter = 0;
/** A client IP no other request of this file uses. */
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const upload = (base: string, token: string) => fetch(`${base}/api/v1/photos`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: '{}' });
const heartbeat = (base: string, token: string) =>
  fetch(`${base}/api/v1/devices/heartbeat`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ queue_depth: 9, app_version: '1.0.0' }) });
const login = (base: string, body: Record<string, unknown>, ip = freshIp()) =>
  fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });

async function expectTooManyRequests(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900).toBe(true);
  expect(await res.json()).toEqual({ error: { code: 'rate_limited', message: 'Too Many Attempts.', retry_after_seconds: retryAfter } });
}

/** A device token of a fresh user (the login is counted by a fresh client IP). */
async function deviceToken(h: Harness): Promise<string> {
  const team = await createTeam(h, 'Rate Team', {}, { password: PASSWORD });
  const res = await login(h.service.url, { email: team.user.email, password: PASSWORD, device_id: randomUUID() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe('per-token buckets, in-memory counters', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: LIMITS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('draining uploads uses only the upload bucket: heartbeat keeps answering until its own budget is spent', async () => {
    const token = await deviceToken(h);
    for (let i = 0; i < 3; i += 1) expect((await upload(h.service.url, token)).status).not.toBe(429);
    await expectTooManyRequests(await upload(h.service.url, token));
    await expectTooManyRequests(await upload(h.service.url, token));
    // The general bucket is untouched by the uploads: 5 heartbeats answer, the 6th is over that budget.
    for (let i = 0; i < 5; i += 1) expect((await heartbeat(h.service.url, token)).status).toBe(200);
    await expectTooManyRequests(await heartbeat(h.service.url, token));
    // Another token has budgets of its own.
    const other = await deviceToken(h);
    expect((await heartbeat(h.service.url, other)).status).toBe(200);
    expect((await upload(h.service.url, other)).status).not.toBe(429);
  });

  it('a busy general bucket does not block uploads either', async () => {
    const token = await deviceToken(h);
    for (let i = 0; i < 5; i += 1) expect((await heartbeat(h.service.url, token)).status).toBe(200);
    await expectTooManyRequests(await heartbeat(h.service.url, token));
    expect((await upload(h.service.url, token)).status).not.toBe(429);
  });

  it('requests without a token are counted per client IP', async () => {
    const ip = freshIp();
    const anonymous = () => fetch(`${h.service.url}/api/v1/projects`, { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 5; i += 1) expect((await anonymous()).status).toBe(401);
    await expectTooManyRequests(await anonymous());
    expect((await fetch(`${h.service.url}/api/v1/projects`, { headers: { 'x-forwarded-for': freshIp() } })).status).toBe(401);
  });

  it('a made-up token buys no budget: unknown tokens are counted per client IP, like no token', async () => {
    const ip = freshIp();
    const madeUp = () => fetch(`${h.service.url}/api/v1/projects`, { headers: { ...bearer(`ph_${randomUUID().replaceAll('-', '')}${'A'.repeat(16)}`), 'x-forwarded-for': ip } });
    for (let i = 0; i < 5; i += 1) expect((await madeUp()).status).toBe(401);
    await expectTooManyRequests(await madeUp());
    // A real token from the same client IP has a budget of its own.
    const token = await deviceToken(h);
    expect((await fetch(`${h.service.url}/api/v1/projects`, { headers: { ...bearer(token), 'x-forwarded-for': ip } })).status).not.toBe(429);
  });

  // Every request counts against the general bucket whatever its path; the login and upload buckets are bound to their
  // routes, so a spelling that reached the login or the upload without them would buy a fresh budget. None does.
  it.each([
    { name: 'login', method: 'POST', path: '/api/v1/auth/login', token: false },
    { name: 'upload', method: 'POST', path: '/api/v1/photos', token: true },
  ])('$name: every other spelling answers 404 without reaching the handler', async (route) => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...(route.token ? bearer(await deviceToken(h)) : {}) };
    const body = JSON.stringify({ email: `spelling-${randomUUID()}@example.test`, password: 'wrong' });
    const answers: string[] = [];
    for (const spelling of otherSpellings(route.path)) {
      const res = await fetch(`${h.service.url}${spelling.path}`, { method: route.method, headers, body });
      await res.arrayBuffer();
      answers.push(`${spelling.name}: ${res.status}`);
    }
    expect(answers).toEqual(otherSpellings(route.path).map((spelling) => `${spelling.name}: 404`));
  });

  it('login: per e-mail (whatever the client IP and letter case) and per client IP (whatever the e-mail)', async () => {
    const email = `rl-${randomUUID()}@example.test`;
    for (let i = 0; i < 3; i += 1) expect((await login(h.service.url, { email, password: 'wrong' })).status).toBe(401);
    await expectTooManyRequests(await login(h.service.url, { email: email.toUpperCase(), password: 'wrong' }));
    expect((await login(h.service.url, { email: `other-${email}`, password: 'wrong' })).status).toBe(401);

    const ip = freshIp();
    for (let i = 0; i < 4; i += 1) expect((await login(h.service.url, { email: `${i}-${email}`, password: 'wrong' }, ip)).status).toBe(401);
    await expectTooManyRequests(await login(h.service.url, { email: `x-${email}`, password: 'wrong' }, ip));
  });
});

describe('counters in Redis, shared by two instances', () => {
  const redisUrl = testRedisUrl();
  const prefix = `tributary-test:photos-rl:${randomUUID()}`;
  const env = { ...LIMITS, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
  let h: Harness;
  let second: RunningPhotosService;

  beforeAll(async () => {
    h = await startHarness({ env });
    const config = loadConfig(photosEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: testTemporalAddress(), ...env });
    second = await startService({ ...config, PORT: 0 }, createLogger({ service: 'photos', level: 'silent' }));
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

  it("one token's upload budget is spread over both instances; Redis holds the token's id, never the token", async () => {
    const token = await deviceToken(h);
    const urls = [h.service.url, second.url];
    for (let i = 0; i < 3; i += 1) expect((await upload(urls[i % 2]!, token)).status).not.toBe(429);
    await expectTooManyRequests(await upload(urls[1]!, token));
    await expectTooManyRequests(await upload(urls[0]!, token));
    expect((await heartbeat(urls[1]!, token)).status).toBe(200);
    const admin = new Redis(redisUrl);
    try {
      const { id } = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(token) });
      expect(await admin.keys(`${prefix}:photos:upload:*`)).toEqual([`${prefix}:photos:upload:token:${id}`]);
      expect((await admin.keys(`${prefix}:*`)).join('\n')).not.toContain(token);
    } finally {
      await admin.quit();
    }
  });
});

describe('defaults', () => {
  it('600 requests and 120 uploads per token per minute; login 10 per e-mail and 100 per IP in 15 minutes', () => {
    const config = loadConfig(photosEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@127.0.0.1/x' });
    expect(config).toMatchObject({
      PHOTOS_RATE_LIMIT_PER_MINUTE: 600,
      PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: 120,
      PHOTOS_LOGIN_RATE_LIMIT_WINDOW_SECONDS: 900,
      PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: 10,
      PHOTOS_LOGIN_RATE_LIMIT_PER_IP: 100,
    });
  });
});
