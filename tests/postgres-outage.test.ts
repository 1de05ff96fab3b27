// PostgreSQL gone under steady traffic: the three services run as real `serve` processes on a PostgreSQL of this file's
// own. First it hangs: a second `serve` of each service reaches it through a loopback proxy that freezes (every
// connection stays open, nothing is refused, nothing answers: a partition, or every PostgreSQL process stopped), and a
// request on a warm pooled connection is answered 503 within the request deadline. Then it is stopped (a clean fast
// shutdown, as an operator or a failover does) while creates keep arriving, then started again. While it is away every
// request gets an answer, and that answer is a 503 in the service's error format (never a hang, never a 500); /readyz
// says 503; once it is back the same processes serve again, and every create that was acknowledged with a 2xx is in
// the database.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { REQUEST_DEADLINE_MS, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@tributary/kit';
import { startTcpProxy, testTemporalAddress, waitFor, type TcpProxy } from '@tributary/kit/testing';
import { ensureDatabases, withDatabase, type ServiceName } from '@tributary/stack';
import { startFaultStack, type FaultStack, type PrivatePostgres, type ServiceProcess } from './support/fault-stack.js';

/** Longer than any answer can take: a request still open after this is a hang, and fails the test. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Concurrent request loops per service. */
const LOOPS = 3;

interface Target {
  name: ServiceName;
  /** The created resource's table, and its column holding the id a 201's body names. */
  table: string;
  column: string;
  createdId(body: unknown): string;
  create(i: number): { path: string; headers: Record<string, string>; body: unknown };
  /** A list that needs the database. */
  read(): { path: string; headers: Record<string, string> };
  /** The service's 503 body. */
  unavailable: unknown;
  /** A dashboard query that needs the database, and the credential it is sent with. */
  graphql: { query: string; authorization: () => string };
}

const targets: Target[] = [
  {
    name: 'crypto',
    table: 'payment_requests',
    column: 'slug',
    createdId: (body) => (body as { payment_request: { id: string } }).payment_request.id,
    create: (i) => ({ path: '/api/merchant/v1/payment-requests', headers: { authorization: `Bearer ${creds.crypto!.api_key}` }, body: { asset_id: 1, title: `Order ${i}`, amount: '0.015' } }),
    read: () => ({ path: '/api/merchant/v1/payment-requests', headers: { authorization: `Bearer ${creds.crypto!.api_key}` } }),
    unavailable: { message: expect.any(String) },
    graphql: { query: '{ paymentRequests(perPage: 1) { total } }', authorization: () => `Bearer ${creds.crypto!.api_key}` },
  },
  {
    name: 'bnpl',
    table: 'widget_sessions',
    column: 'token',
    createdId: (body) => (body as { session_token: string }).session_token,
    create: (i) => ({
      path: '/api/v1/widget/sessions',
      headers: { authorization: `Bearer ${creds.bnpl!.secret_key}`, 'x-merchant-public-key': String(creds.bnpl!.public_key) },
      body: { amount_cents: 25_000, currency: 'EUR', order_reference: `order-${i}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' },
    }),
    read: () => ({ path: '/api/v1/merchant/sales', headers: { authorization: `Bearer ${creds.bnpl!.dashboard_token}` } }),
    unavailable: { error: { code: 'service_unavailable', message: expect.any(String) } },
    graphql: { query: '{ bnplMerchant { id } }', authorization: () => `Bearer ${creds.bnpl!.dashboard_token}` },
  },
  {
    name: 'photos',
    table: 'projects',
    column: 'id',
    createdId: (body) => String((body as { data: { id: number } }).data.id),
    create: (i) => ({ path: '/api/v1/projects', headers: { authorization: `Bearer ${creds.photos!.token}` }, body: { name: `Site ${i}` } }),
    read: () => ({ path: '/api/v1/photos', headers: { authorization: `Bearer ${creds.photos!.token}` } }),
    unavailable: { error: { code: 'service_unavailable', message: expect.any(String) } },
    graphql: { query: '{ photosTeam { id } }', authorization: () => `Bearer ${creds.photos!.token}` },
  },
];

interface Outcome {
  status: number;
  body: unknown;
  retryAfter: string | null;
  /** The id a 2xx's body names. */
  created?: string;
  /** A request that got no HTTP answer (connection error or the timeout above). */
  failure?: string;
}

let stack: FaultStack;
let postgres: PrivatePostgres;
/** Between the second `serve` of each service and PostgreSQL. */
let proxy: TcpProxy;
const proxiedServers: Partial<Record<ServiceName, ServiceProcess>> = {};
const creds: Partial<Record<ServiceName, Record<string, string>>> = {};
const databases: Partial<Record<ServiceName, string>> = {};
const servers: Partial<Record<ServiceName, ServiceProcess>> = {};
const outcomes: Record<ServiceName, Outcome[]> = { bnpl: [], crypto: [], photos: [] };

async function send(target: Target, i: number): Promise<Outcome> {
  const { path, headers, body } = target.create(i);
  try {
    const res = await fetch(`${servers[target.name]!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    return { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after'), ...(res.ok ? { created: target.createdId(parsed) } : {}) };
  } catch (error) {
    return { status: 0, body: null, retryAfter: null, failure: String(error) };
  }
}

/** Creates on every service from LOOPS loops each, until stop() is called; every outcome is recorded. */
function steadyTraffic(): { stop(): Promise<void> } {
  let running = true;
  let counter = 0;
  const loops = targets.flatMap((target) =>
    Array.from({ length: LOOPS }, async () => {
      while (running) outcomes[target.name].push(await send(target, ++counter));
    }),
  );
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const readyz = (name: ServiceName) => fetch(`${servers[name]!.url}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then((r) => r.status, () => 0);
/**
 * How a dashboard query that needs the database is refused: `SERVICE_UNAVAILABLE` errors in a 200 (the GraphQL layer;
 * the gateway keeps them), or a 503 in the service's format when a guard in front of it (crypto's rate limit, which
 * looks the API key up) already needed the database.
 */
async function graphqlRefusal(target: Target): Promise<string> {
  const res = await fetch(`${servers[target.name]!.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: target.graphql.authorization() },
    body: JSON.stringify({ query: target.graphql.query }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  if (res.status === 503) {
    expect(body).toEqual(target.unavailable);
    return 'HTTP 503';
  }
  return `HTTP ${res.status}: ${(body.errors ?? []).map((e) => e.extensions?.code).join(', ')}`;
}
const count = (name: ServiceName, status: (s: number) => boolean) => outcomes[name].filter((o) => status(o.status)).length;

/** The same database URL, through the proxy. */
function throughProxy(url: string): string {
  const proxied = new URL(url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  return proxied.toString();
}

beforeAll(async () => {
  stack = await startFaultStack('pg-outage');
  postgres = await stack.postgres();
  const direct = new URL(postgres.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
  await Promise.all(
    targets.map(async ({ name }) => {
      const database = `outage_${name}`;
      await ensureDatabases(postgres.url, [database]);
      databases[name] = withDatabase(postgres.url, database);
      creds[name] = (await stack.prepareDatabase(name, databases[name])) as Record<string, string>;
      const env = { TEMPORAL_ADDRESS: testTemporalAddress(), CRYPTO_MERCHANT_RATE_LIMIT: '1000000' };
      servers[name] = await stack.serve(name, { ...env, DATABASE_URL: databases[name] });
      proxiedServers[name] = await stack.serve(name, { ...env, DATABASE_URL: throughProxy(databases[name]) }, `pg-outage-${name}-serve-proxied`);
    }),
  );
}, 180_000);
afterAll(async () => {
  // Thawed first: a process shutting down ends its pool's connections, which waits for an answer.
  proxy?.thaw();
  await stack?.close();
  await proxy?.close();
});

interface TimedOutcome extends Omit<Outcome, 'created'> {
  ms: number;
}

/** A request to the proxied `serve`, timed; a request with no answer after REQUEST_TIMEOUT_MS is a failure. */
async function timed(target: Target, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<TimedOutcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${proxiedServers[target.name]!.url}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown), retryAfter: res.headers.get('retry-after'), ms: performance.now() - t0 };
  } catch (error) {
    return { status: 0, body: null, retryAfter: null, failure: String(error), ms: performance.now() - t0 };
  }
}

const readThroughProxy = (target: Target) => timed(target, 'GET', target.read().path, target.read().headers);

describe('PostgreSQL hanging (nothing refused, nothing answered)', () => {
  it('answers a request on a warm pooled connection 503 in each service\'s format within the request deadline; /readyz 503; serves again once it answers', async () => {
    // Warm: each pool holds open connections.
    for (const target of targets) {
      for (let i = 0; i < 3; i += 1) expect({ name: target.name, status: (await readThroughProxy(target)).status }).toEqual({ name: target.name, status: 200 });
    }
    proxy.freeze();
    try {
      const answers = await Promise.all(
        targets.map(async (target) => {
          const { path, headers, body } = target.create(0);
          const [read, create] = await Promise.all([readThroughProxy(target), timed(target, 'POST', path, headers, body)]);
          return { target, read, create };
        }),
      );
      for (const { target, read, create } of answers) {
        for (const [what, outcome] of [['read', read], ['create', create]] as const) {
          const { ms, ...answer } = outcome;
          expect({ service: target.name, what, answer }).toEqual({ service: target.name, what, answer: { status: 503, body: target.unavailable, retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS) } });
          expect({ service: target.name, what, withinDeadline: ms < REQUEST_DEADLINE_MS + 2_000 }).toEqual({ service: target.name, what, withinDeadline: true });
        }
        const ready = await fetch(`${proxiedServers[target.name]!.url}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        expect({ service: target.name, readyz: ready.status }).toEqual({ service: target.name, readyz: 503 });
      }
    } finally {
      proxy.thaw();
    }
    for (const target of targets) {
      const status = await waitFor(async () => (await readThroughProxy(target)).status, (s) => s === 200, 60_000);
      expect({ service: target.name, status }).toEqual({ service: target.name, status: 200 });
    }
  }, 120_000);
});

describe('PostgreSQL stopped during steady traffic', () => {
  it('answers 503 in each service\'s format while it is away, /readyz 503; recovers without a restart; no acknowledged create is lost', async () => {
    const traffic = steadyTraffic();
    try {
      await waitFor(async () => targets.map((t) => count(t.name, (s) => s === 201)), (created) => created.every((n) => n >= LOOPS));
      await postgres.stop();
      const refusedWhileDown = await waitFor(async () => targets.map((t) => count(t.name, (s) => s >= 500)), (refused) => refused.every((n) => n >= 5), 60_000);
      expect(refusedWhileDown.every((n) => n >= 5)).toBe(true);
      for (const { name } of targets) expect({ name, readyz: await readyz(name) }).toEqual({ name, readyz: 503 });
      for (const target of targets) expect(['HTTP 503', 'HTTP 200: SERVICE_UNAVAILABLE']).toContain(await graphqlRefusal(target));

      const beforeReturn = Object.fromEntries(targets.map((t) => [t.name, outcomes[t.name].length]));
      await postgres.start();
      for (const { name } of targets) {
        expect({ name, readyz: await waitFor(() => readyz(name), (s) => s === 200, 60_000) }).toEqual({ name, readyz: 200 });
        const createdAfter = await waitFor(async () => outcomes[name].slice(beforeReturn[name]).filter((o) => o.status === 201).length, (n) => n >= 3, 60_000);
        expect({ name, createdAfter: createdAfter >= 3 }).toEqual({ name, createdAfter: true });
      }
    } finally {
      await traffic.stop();
    }

    for (const target of targets) {
      const all = outcomes[target.name];
      // Every request got an HTTP answer, and each answer is a 201 or the service's 503.
      expect({ service: target.name, failures: all.filter((o) => o.failure).map((o) => o.failure) }).toEqual({ service: target.name, failures: [] });
      const statuses = new Set(all.map((o) => o.status));
      expect({ service: target.name, statuses: [...statuses].sort() }).toEqual({ service: target.name, statuses: [201, 503] });
      for (const refused of all.filter((o) => o.status === 503)) expect(refused).toEqual({ status: 503, body: target.unavailable, retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS) });

      const acknowledged = all.filter((o) => o.status === 201).map((o) => o.created!);
      const client = new pg.Client({ connectionString: databases[target.name] });
      await client.connect();
      try {
        const column = target.column === 'id' ? '"id"::text' : `"${target.column}"`;
        const found = await client.query<{ n: string }>(`select count(*) as n from "${target.table}" where ${column} = any($1)`, [acknowledged]);
        expect({ service: target.name, acknowledged: acknowledged.length, found: Number(found.rows[0]!.n) }).toEqual({ service: target.name, acknowledged: acknowledged.length, found: acknowledged.length });
      } finally {
        await client.end();
      }
    }
  }, 240_000);
});
