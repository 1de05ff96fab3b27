// Two instances of a service (issue 13 §3, "Running more than one instance" in the README): each service runs two
// `serve` and two `worker` processes on one PostgreSQL database, one Temporal server (this file's own) and one Redis,
// and requests alternate between the two serves. What must hold across instances does: one Idempotency-Key makes one
// resource and one workflow start; concurrent creates never share a receive address; the merchant's rate-limit
// budget is one budget; a payment link sells no more than its uses when checkouts race on both instances; and every
// webhook delivery workflow runs once, whichever worker picks it up.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { IDEMPOTENT_RETRY_BURST, createTestDatabase, startHttpsReceiver, testRedisUrl, waitFor, type HttpsReceiver, type TestDatabase } from '@tributary/kit/testing';
import type { ServiceName } from '@tributary/stack';
import { invoiceWorkflowId, widgetSessionWorkflowId } from '@tributary/workflows';
import { startFaultStack, WEBHOOK_TEST_HOSTS, type FaultStack, type PrivateTemporal, type ServiceProcess, queryDatabase } from './support/fault-stack.js';

const REDIS_URL = testRedisUrl();
const REDIS_PREFIX = `tributary-test:scale-out:${randomUUID()}`;
/** crypto's merchant budget for this file (one window for the whole file): every request of the key counts once. */
const MERCHANT_BUDGET = 400;
/** Concurrent creates without a key: each must get an address of its own. */
const CONCURRENT_CREATES = 40;
/** photos projects created, so as many project.created deliveries. */
const PROJECTS = 10;
const INSTANCES = 2;
/** A payment link's uses, and the checkouts racing for them. */
const LINK_USES = 3;
const LINK_CHECKOUTS = 8;
const SERVICES = ['bnpl', 'crypto', 'photos'] as const;

let stack: FaultStack;
let temporal: PrivateTemporal;
let receiver: HttpsReceiver;
const databases: Partial<Record<ServiceName, TestDatabase>> = {};
const creds: Partial<Record<ServiceName, Record<string, string>>> = {};
const serves: Partial<Record<ServiceName, ServiceProcess[]>> = {};

/** Every status crypto's demo key got, from either instance: the rate limit counts them all. */
const cryptoStatuses: number[] = [];
let turn = 0;

function query<T extends pg.QueryResultRow>(name: ServiceName, sql: string, params: unknown[] = []): Promise<T[]> {
  return queryDatabase<T>(databases[name]!.url, sql, params);
}

/** The next instance in turn: requests alternate between the two serves. */
const nextUrl = (name: ServiceName) => serves[name]![turn++ % INSTANCES]!.url;

async function crypto(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${nextUrl('crypto')}/api/merchant/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${creds.crypto!.api_key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  cryptoStatuses.push(res.status);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  stack = await startFaultStack('scale-out');
  temporal = await stack.temporal();
  receiver = await startHttpsReceiver();
  await Promise.all(
    SERVICES.map(async (name) => {
      databases[name] = await createTestDatabase(`scale_out_${name}`);
      const env = {
        DATABASE_URL: databases[name].url,
        TEMPORAL_ADDRESS: temporal.address,
        REDIS_URL,
        RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX,
        CRYPTO_MERCHANT_RATE_LIMIT: String(MERCHANT_BUDGET),
        CRYPTO_RATE_LIMIT_WINDOW_SECONDS: '3600',
        WEBHOOK_ALLOW_PRIVATE_HOSTS: WEBHOOK_TEST_HOSTS,
      };
      creds[name] = (await stack.prepareDatabase(name, databases[name].url, env)) as Record<string, string>;
      serves[name] = await Promise.all(Array.from({ length: INSTANCES }, (_, i) => stack.serve(name, env, `scale-out-${name}-serve-${i + 1}`)));
      for (let i = 0; i < INSTANCES; i += 1) stack.worker(name, env, `scale-out-${name}-worker-${i + 1}`);
    }),
  );
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  for (const db of Object.values(databases)) await db.drop();
  const redis = new Redis(REDIS_URL);
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${REDIS_PREFIX}:*`, count: 100 }) as AsyncIterable<string[]>) keys.push(...batch);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('two instances of crypto on one database, Temporal and Redis', () => {
  it('one Idempotency-Key over both instances makes one payment request and one workflow start', async () => {
    const invoice = { asset_id: 1, title: 'Retried over two instances', amount: '0.015' };
    const answers = await Promise.all(Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => crypto('POST', '/payment-requests', invoice, { 'idempotency-key': 'scale-out-burst' })));
    expect(answers.map((a) => a.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    const ids = new Set(answers.map((a) => (a.body.payment_request as { id: string }).id));
    expect(ids.size).toBe(1);
    const [slug] = [...ids];
    const requests = await query<{ id: number; created_at: Date }>('crypto', 'select id, created_at from payment_requests where slug = $1', [slug]);
    expect(requests).toHaveLength(1);
    const workflowId = invoiceWorkflowId({ id: Number(requests[0]!.id), createdAt: requests[0]!.created_at });
    expect(await query('crypto', "select id from workflow_outbox where kind = 'start' and workflow_id = $1", [workflowId])).toHaveLength(1);
  });

  it('concurrent creates on both instances each get a receive address of their own', async () => {
    const answers = await Promise.all(Array.from({ length: CONCURRENT_CREATES }, (_, i) => crypto('POST', '/payment-requests', { asset_id: 1, title: `Order ${i}`, amount: '0.015' })));
    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT_CREATES).fill(201));
    const addresses = answers.map((a) => (a.body.payment_request as { address: string }).address);
    expect(new Set(addresses).size).toBe(CONCURRENT_CREATES);
  });

  it('the merchant budget is one budget: over both instances exactly MERCHANT_BUDGET requests pass, then both answer 429', async () => {
    while (cryptoStatuses.filter((s) => s !== 429).length < MERCHANT_BUDGET && cryptoStatuses.length < 2 * MERCHANT_BUDGET) {
      await Promise.all(Array.from({ length: 20 }, () => crypto('GET', '/account')));
    }
    expect(cryptoStatuses.filter((s) => s !== 429)).toHaveLength(MERCHANT_BUDGET);
    for (let i = 0; i < INSTANCES; i += 1) expect((await crypto('GET', '/account')).status).toBe(429);
  });
});

describe('two instances of bnpl', () => {
  const api = async (path: string, token: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${nextUrl('bnpl')}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('one Idempotency-Key over both instances makes one widget session and one workflow start', async () => {
    const cart = { amount_cents: 25_000, currency: 'EUR', order_reference: 'scale-out', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' };
    const answers = await Promise.all(
      Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => api('/widget/sessions', creds.bnpl!.secret_key!, cart, { 'x-merchant-public-key': creds.bnpl!.public_key!, 'idempotency-key': 'scale-out-burst' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    const tokens = new Set(answers.map((a) => a.body.session_token as string));
    expect(tokens.size).toBe(1);
    const [token] = [...tokens];
    const sessions = await query<{ id: string }>('bnpl', 'select id from widget_sessions where token = $1', [token]);
    expect(sessions).toHaveLength(1);
    expect(await query('bnpl', "select id from workflow_outbox where kind = 'start' and workflow_id = $1", [widgetSessionWorkflowId(sessions[0]!.id)])).toHaveLength(1);
  });

  it(`checkouts racing on both instances for a link's ${LINK_USES} uses book exactly ${LINK_USES} loans`, async () => {
    const link = await api('/merchant/payment-links', creds.bnpl!.dashboard_token!, { title: 'Limited edition', amount_cents: 12_000, currency: 'USD', max_uses: LINK_USES, environment: 'test' });
    expect(link.status).toBe(201);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Every checkout starts while the link still has uses left (a use is taken when the loan is booked)...
    const checkouts = await Promise.all(
      Array.from({ length: LINK_CHECKOUTS }, async () => {
        const started = await fetch(`${nextUrl('bnpl')}/l/${link.body.slug as string}`, { method: 'POST', headers: form, body: '', redirect: 'manual' });
        expect(started.status).toBe(303);
        return new URL(started.headers.get('location')!).pathname;
      }),
    );
    for (const page of checkouts) expect((await fetch(`${nextUrl('bnpl')}${page}`)).status).toBe(200);
    // ...and all confirm at once, alternating instances.
    const confirmed = await Promise.all(
      checkouts.map((page) =>
        fetch(`${nextUrl('bnpl')}${page}`, { method: 'POST', headers: form, body: new URLSearchParams({ plan_id: 'pay_in_4', email: 'jo@example.com', terms: 'accepted' }).toString(), redirect: 'manual' }).then((r) => r.status),
      ),
    );
    expect(confirmed.filter((status) => status === 303)).toHaveLength(LINK_USES);
    const [stored] = await query<{ uses_count: number }>('bnpl', 'select uses_count from payment_links where slug = $1', [link.body.slug]);
    expect(stored!.uses_count).toBe(LINK_USES);
    const loans = await query('bnpl', 'select l.id from loans l join widget_sessions s on s.id = l.session_id where s.payment_link_id = (select id from payment_links where slug = $1)', [link.body.slug]);
    expect(loans).toHaveLength(LINK_USES);
  });
});

describe('two photos workers on one Temporal task queue', () => {
  it('every project.created delivery runs once, whichever worker takes it', async () => {
    const token = creds.photos!.token!;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${nextUrl('photos')}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await post('/webhook-endpoints', { url: `${receiver.url}/photos-hook`, events: ['project.created'] })).toBe(201);
    const statuses = await Promise.all(Array.from({ length: PROJECTS }, (_, i) => post('/projects', { name: `Scaled site ${i}` })));
    expect(statuses).toEqual(Array(PROJECTS).fill(201));
    const delivered = await waitFor(
      () => query<{ status: string }>('photos', 'select status from webhook_deliveries'),
      (rows) => rows.length === PROJECTS && rows.every((r) => r.status === 'delivered'),
      60_000,
    );
    expect(delivered.map((d) => d.status)).toEqual(Array(PROJECTS).fill('delivered'));
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(PROJECTS);
    expect(new Set(ids).size).toBe(PROJECTS);
  }, 120_000);
});
