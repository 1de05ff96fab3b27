// /metrics over real HTTP: the kit app's request histogram by route template and status (never the raw URL), rate-limit
// refusals, METRICS_TOKEN, /metrics outside the route inventory; and a worker's listener with the database pool gauges.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import {
  METRICS_PATH,
  UNMATCHED_ROUTE,
  createLogger,
  createRateLimitStore,
  createServiceApp,
  envelopeErrorFormat,
  listRegisteredRoutes,
  rateLimit,
  startHttpServer,
  type RunningServer,
} from '../../src/index.js';
import { openServiceDatabase, startWorkerListener } from '../../src/runtime/index.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/index.js';
import { notesService } from '../fixtures/notes-service.js';
import { metricSamples, sampleValue } from './prometheus-text.js';

const logger = createLogger({ service: 'kit-metrics-test', level: 'silent' });
const TOKEN = 'metrics-token-for-the-test';

async function startApp(metricsToken?: string): Promise<RunningServer> {
  const store = createRateLimitStore({ service: 'metrics-test', logger });
  const app = await createServiceApp({
    service: 'metrics-test',
    logger,
    errorFormat: envelopeErrorFormat,
    readiness: [],
    metricsToken,
    configure(express) {
      const things = Router();
      things.get('/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      express.use('/api/things', things);
      express.get('/limited', rateLimit({ store, logger, bucket: { name: 'tiny', points: 1, durationSeconds: 60 }, key: () => 'one-client' }), (_req, res) => {
        res.json({ ok: true });
      });
    },
  });
  return startHttpServer(app, { port: 0, host: '127.0.0.1', logger });
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}${METRICS_PATH}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

describe('the kit app /metrics', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts requests by route template and status code, one fixed label for unmatched paths, and rate-limit refusals', async () => {
    for (const path of ['/api/things/1', '/api/things/2', '/nowhere/3', '/limited', '/limited']) await (await fetch(`${server.url}${path}`)).arrayBuffer();
    const samples = metricSamples(await scrape(server.url));
    const count = (route: string, status: string) =>
      sampleValue(samples, 'tributary_http_request_duration_seconds_count', { service: 'metrics-test', method: 'GET', route, status_code: status });
    expect(count('/api/things/:id', '200')).toBe(2);
    expect(count(UNMATCHED_ROUTE, '404')).toBe(1);
    expect(count('/limited', '200')).toBe(1);
    expect(count('/limited', '429')).toBe(1);
    expect(samples.some((s) => s.labels.route?.includes('/api/things/1'))).toBe(false);
    expect(sampleValue(samples, 'tributary_rate_limit_refusals_total', { service: 'metrics-test', bucket: 'tiny' })).toBe(1);
    // prom-client's default process metrics, labelled with the service.
    expect(sampleValue(samples, 'process_cpu_seconds_total', { service: 'metrics-test' })).toBeGreaterThan(0);
  });

  it('is no route of the app (not in the route inventory the OpenAPI checks read)', async () => {
    const app = await createServiceApp({ service: 'metrics-test', logger, errorFormat: envelopeErrorFormat, readiness: [], configure: () => {} });
    expect(listRegisteredRoutes(app).map((route) => route.path)).not.toContain(METRICS_PATH);
  });
});

describe('METRICS_TOKEN', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startApp(TOKEN);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a scrape without the bearer token (401 in the service’s format) and answers one with it', async () => {
    const refused = await fetch(`${server.url}${METRICS_PATH}`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: expect.objectContaining({ code: expect.any(String) }) });
    expect(await scrape(server.url, { authorization: `Bearer ${TOKEN}` })).toContain('tributary_http_request_duration_seconds');
  });
});

describe('the worker listener', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let listener: RunningServer;
  beforeAll(async () => {
    db = await createTestDatabase('kit_worker_metrics');
    orm = await openServiceDatabase(notesService, db.url);
    listener = await startWorkerListener({
      service: notesService.name,
      orm,
      logger,
      config: { HOST: '127.0.0.1', METRICS_PORT: 0, TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_NAMESPACE: 'default', METRICS_TOKEN: undefined, SHUTDOWN_GRACE_MS: 1_000 },
    });
  });
  afterAll(async () => {
    await listener?.close();
    await orm?.close();
    await db?.drop();
  });

  it('serves /metrics with the service’s database pool gauges, and the health probe', async () => {
    await orm.em.getConnection().execute('select 1');
    const samples = metricSamples(await scrape(listener.url));
    expect(sampleValue(samples, 'tributary_db_pool_connections', { service: notesService.name })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'tributary_db_pool_max_connections', { service: notesService.name })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'tributary_db_pool_waiting_clients', { service: notesService.name })).toBe(0);
    expect((await fetch(`${listener.url}/healthz`)).status).toBe(200);
  });
});
