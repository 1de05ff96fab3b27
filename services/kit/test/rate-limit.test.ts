import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { Express, RequestHandler } from 'express';
import { Redis } from 'ioredis';
import request from 'supertest';
import {
  applyTrustProxy,
  clientIpKey,
  createRateLimitStore,
  createServiceApp,
  envelopeErrorFormat,
  loadConfig,
  messageErrorFormat,
  rateLimit,
  rateLimitEnv,
  type RateLimitStore,
} from '../src/index.js';
import { testRedisUrl } from '../src/testing/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const cryptoFormat = messageErrorFormat({ authentication: 'Invalid API credentials.', not_found: 'Not found.' });
const redisUrl = testRedisUrl();
const stores: RateLimitStore[] = [];

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

interface AppOptions {
  store: RateLimitStore;
  points?: number;
  durationSeconds?: number;
  trustProxy?: string;
  format?: typeof cryptoFormat;
}

/** An app with a default bucket on /api and a separate `uploads` bucket on /api/uploads (photos' shape), keyed by X-Client or IP. */
async function buildApp(options: AppOptions): Promise<{ app: Express; logs: ReturnType<typeof capturingLogger> }> {
  const logs = capturingLogger('info');
  const points = options.points ?? 3;
  const durationSeconds = options.durationSeconds ?? 60;
  const byClient = (req: { headers: Record<string, unknown> }) => (typeof req.headers['x-client'] === 'string' ? `client:${req.headers['x-client']}` : undefined);
  const app = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat: options.format ?? cryptoFormat,
    readiness: [],
    configure(app) {
      if (options.trustProxy) applyTrustProxy(app, loadConfig(rateLimitEnv, { TRUST_PROXY: options.trustProxy }).TRUST_PROXY);
      const ok: RequestHandler = (req, res) => {
        res.json({ ok: true, key: clientIpKey(req) });
      };
      app.use('/api/uploads', rateLimit({ store: options.store, logger: logs.logger, bucket: { name: 'uploads', points, durationSeconds }, key: (req) => byClient(req) ?? clientIpKey(req) }));
      app.post('/api/uploads', ok);
      app.use('/api', rateLimit({ store: options.store, logger: logs.logger, bucket: { name: 'default', points, durationSeconds }, key: (req) => byClient(req) ?? clientIpKey(req) }));
      app.get('/api/things', ok);
    },
  });
  return { app, logs };
}

function memory(): RateLimitStore {
  const store = createRateLimitStore({ service: `kit-test-${randomUUID()}`, logger: capturingLogger().logger });
  stores.push(store);
  return store;
}

describe('rateLimit middleware (memory store)', () => {
  it('lets `points` requests through, then answers 429 Too Many Attempts. with Retry-After and RateLimit headers', async () => {
    const { app } = await buildApp({ store: memory(), points: 3, durationSeconds: 60 });
    for (let i = 3; i >= 1; i--) {
      const res = await request(app).get('/api/things').set('x-client', 'a');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(i - 1));
    }
    const limited = await request(app).get('/api/things').set('x-client', 'a');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
  });

  it('renders through the service error format (envelope for bnpl/photos)', async () => {
    const { app } = await buildApp({ store: memory(), points: 1, format: envelopeErrorFormat });
    await request(app).get('/api/things').set('x-client', 'a').expect(200);
    const limited = await request(app).get('/api/things').set('x-client', 'a');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('keeps separate budgets per key and per named bucket (an upload bucket does not drain the rest)', async () => {
    const { app } = await buildApp({ store: memory(), points: 2 });
    for (let i = 0; i < 2; i++) await request(app).post('/api/uploads').set('x-client', 'device').send({}).expect(200);
    expect((await request(app).post('/api/uploads').set('x-client', 'device').send({})).status).toBe(429);
    // Same client, other bucket: untouched.
    await request(app).get('/api/things').set('x-client', 'device').expect(200);
    // Other client, same bucket: untouched.
    await request(app).post('/api/uploads').set('x-client', 'other').send({}).expect(200);
  });

  it('a window ends: the budget comes back after Retry-After seconds', async () => {
    const { app } = await buildApp({ store: memory(), points: 1, durationSeconds: 1 });
    await request(app).get('/api/things').set('x-client', 'a').expect(200);
    const limited = await request(app).get('/api/things').set('x-client', 'a');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await request(app).get('/api/things').set('x-client', 'a').expect(200);
  });
});

describe('client IP key and TRUST_PROXY', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is configured', async () => {
    const { app } = await buildApp({ store: memory(), points: 2 });
    const first = await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.1');
    expect(first.body.key).toBe('ip:127.0.0.1');
    await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.2').expect(200);
    // A client cannot pick a fresh bucket by forging the header.
    expect((await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.3')).status).toBe(429);
  });

  it('with TRUST_PROXY=loopback the forwarded client address is the key', async () => {
    const { app } = await buildApp({ store: memory(), points: 1, trustProxy: 'loopback' });
    const first = await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.1');
    expect(first.status).toBe(200);
    expect(first.body.key).toBe('ip:203.0.113.1');
    expect((await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.1')).status).toBe(429);
    await request(app).get('/api/things').set('x-forwarded-for', '203.0.113.2').expect(200);
    // IPv6 clients are counted per /64.
    const v6 = await request(app).get('/api/things').set('x-forwarded-for', '2001:db8:1:2:aaaa::1');
    expect(v6.body.key).toBe('ip6:2001:db8:1:2::/64');
    expect((await request(app).get('/api/things').set('x-forwarded-for', '2001:db8:1:2:bbbb::2')).status).toBe(429);
  });

  it('parses TRUST_PROXY and REDIS_URL', () => {
    expect(loadConfig(rateLimitEnv, {})).toEqual({ RATE_LIMIT_REDIS_PREFIX: 'tributary:rl' });
    expect(loadConfig(rateLimitEnv, { TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig(rateLimitEnv, { TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig(rateLimitEnv, { TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig(rateLimitEnv, { REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
  });
});

describe('Redis store', () => {
  const prefix = `tributary-test:rl:${randomUUID()}`;
  const admin = new Redis(redisUrl, { lazyConnect: true });

  afterAll(async () => {
    // Only this suite's own keys.
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}:*`, count: 100 }) as AsyncIterable<string[]>) keys.push(...batch);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  async function redisStore(logger = capturingLogger().logger, url = redisUrl): Promise<RateLimitStore> {
    const store = createRateLimitStore({ service: 'kit-test', logger, redisUrl: url, redisPrefix: prefix });
    stores.push(store);
    await store.ready();
    return store;
  }

  it('two app instances share one limit through Redis', async () => {
    const one = await buildApp({ store: await redisStore(), points: 4 });
    const two = await buildApp({ store: await redisStore(), points: 4 });
    await request(one.app).get('/api/things').set('x-client', 'shared').expect(200);
    await request(two.app).get('/api/things').set('x-client', 'shared').expect(200);
    await request(one.app).get('/api/things').set('x-client', 'shared').expect(200);
    await request(two.app).get('/api/things').set('x-client', 'shared').expect(200);
    const limited = await request(one.app).get('/api/things').set('x-client', 'shared');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await request(two.app).get('/api/things').set('x-client', 'shared')).status).toBe(429);
    // The counter is in Redis under this suite's prefix.
    expect(await admin.get(`${prefix}:kit-test:default:client:shared`)).toBe('6');
  });

  it('a Redis outage is never a 500: requests are counted in memory and the outage is logged', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const logs = capturingLogger('info');
    const { app } = await buildApp({ store: await redisStore(logs.logger, `redis://127.0.0.1:${closedPort}/0`), points: 2 });
    await request(app).get('/api/things').set('x-client', 'x').expect(200);
    await request(app).get('/api/things').set('x-client', 'x').expect(200);
    expect((await request(app).get('/api/things').set('x-client', 'x')).status).toBe(429);
    expect(logs.lines().some((line) => line.level === 40 && String(line.msg).includes('Redis unreachable'))).toBe(true);
  });
});
