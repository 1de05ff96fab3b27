// One trace over real HTTP: the three real services (own fresh databases, the test Temporal) behind the real gateway,
// all recording into an in-memory exporter. A dashboard mutation touching all three subgraphs, sent with the caller's
// W3C traceparent, must come back as one trace: the gateway's server span, each subgraph's server span below it (the
// traceparent went over the gateway's subgraph HTTP calls), their SQL below those, and crypto's workflow start.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import * as bnpl from '@tributary/bnpl';
import * as crypto from '@tributary/crypto';
import { gatewayEnv, startGateway } from '@tributary/gateway';
import * as photos from '@tributary/photos';
import { SERVICE_ATTRIBUTE, createLogger, installTracing, loadConfig, migrateUp, startHttpServer, type RunningServer, type Tracing } from '@tributary/kit';
import type { ServiceDefinition } from '@tributary/kit/runtime';
import { createTestDatabase, testServiceConfig, waitFor } from '@tributary/kit/testing';

type Name = 'bnpl' | 'crypto' | 'photos';
const NAMES: readonly Name[] = ['bnpl', 'crypto', 'photos'];
const services = { bnpl, crypto, photos } as const;
// Each service's own env schema (rate limits, secrets...) with test values; the union of the three is not one type.
const definitions: Record<Name, ServiceDefinition> = { bnpl: bnpl.bnplService, crypto: crypto.cryptoService, photos: photos.photosService } as never;
const logger = createLogger({ service: 'tracing-test', level: 'silent' });
const exporter = new InMemorySpanExporter();
const cleanup: Array<() => Promise<void>> = [];
const urls = {} as Record<Name, string>;
const credentials = {} as Record<Name, Record<string, unknown>>;
let tracing: Tracing;
let gateway: RunningServer;

async function startService(name: Name): Promise<void> {
  const svc = services[name];
  const db = await createTestDatabase(`tracing_${name}`);
  cleanup.unshift(() => db.drop());
  const orm = await svc.openDatabase(db.url, logger);
  cleanup.unshift(() => orm.close());
  await migrateUp(orm);
  credentials[name] = (await svc.seedDemoData(orm.em.fork())) as unknown as Record<string, unknown>;
  const config = { ...testServiceConfig(definitions[name], db.url), PORT: 0 };
  const built = await svc.buildApp({ orm, logger, config: config as never });
  const server = await startHttpServer(built.app, { port: 0, host: '127.0.0.1', logger, graceMs: 500, onClose: [built.close] });
  cleanup.unshift(() => server.close());
  urls[name] = `${server.url}/graphql`;
}

beforeAll(async () => {
  tracing = installTracing('tracing-test', new SimpleSpanProcessor(exporter));
  cleanup.push(() => tracing.shutdown());
  await Promise.all(NAMES.map(startService));
  const config = loadConfig(gatewayEnv, { BNPL_SUBGRAPH_URL: urls.bnpl, CRYPTO_SUBGRAPH_URL: urls.crypto, PHOTOS_SUBGRAPH_URL: urls.photos, SHUTDOWN_GRACE_MS: '500' });
  gateway = await startGateway({ ...config, PORT: 0 }, logger);
  cleanup.unshift(() => gateway.close());
}, 120_000);

afterAll(async () => {
  for (const step of cleanup) await step();
});

const DASHBOARD_MUTATION = `mutation {
  createPaymentRequest(input: { assetId: 1, title: "Traced order", amount: "0.01" }) { id }
  createPhotosProject(input: { name: "Traced site" }) { id }
  createBnplApiKey(name: "Traced key", environment: "test") { apiKey { id } }
}`;

/** The spans from `span` up to the trace's root, `span` first. */
function ancestry(span: ReadableSpan, all: readonly ReadableSpan[]): ReadableSpan[] {
  const chain = [span];
  for (let parentId = span.parentSpanId; parentId; ) {
    const parent = all.find((candidate) => candidate.spanContext().spanId === parentId);
    if (!parent) break;
    chain.push(parent);
    parentId = parent.parentSpanId;
  }
  return chain;
}

const serverSpanOf = (spans: readonly ReadableSpan[], service: string) =>
  spans.filter((span) => span.attributes[SERVICE_ATTRIBUTE] === service && span.name === 'POST /graphql');

describe('one trace from the gateway through every subgraph, its SQL and the workflow start', () => {
  it('parents every span under the caller’s traceparent', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
        'x-bnpl-authorization': `Bearer ${String(credentials.bnpl.dashboard_token)}`,
        'x-crypto-authorization': `Bearer ${String(credentials.crypto.api_key)}`,
        'x-photos-authorization': `Bearer ${String(credentials.photos.token)}`,
      },
      body: JSON.stringify({ query: DASHBOARD_MUTATION }),
    });
    const body = (await res.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors).toBeUndefined();

    // The workflow start is dispatched after crypto's commit, in the background: wait for its span.
    const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const spans = await waitFor(async () => inTrace(), (found) => found.some((span) => span.name.startsWith('StartWorkflow:')));

    const [gatewaySpan, ...otherGatewaySpans] = serverSpanOf(spans, 'gateway');
    expect(otherGatewaySpans).toEqual([]);
    expect(gatewaySpan!.parentSpanId).toBe(callerSpanId);
    for (const name of NAMES) {
      const [subgraphSpan] = serverSpanOf(spans, name);
      expect(subgraphSpan).toBeDefined();
      // Below the gateway's server span: the gateway's subgraph call carried the trace context.
      expect(ancestry(subgraphSpan!, spans)).toContain(gatewaySpan);
      const sql = spans.filter((span) => span.name.startsWith('SQL ') && ancestry(span, spans).includes(subgraphSpan!));
      expect(sql.length).toBeGreaterThan(0);
      expect(sql.every((span) => typeof span.attributes['db.query.text'] === 'string')).toBe(true);
    }
    const [cryptoSpan] = serverSpanOf(spans, 'crypto');
    const start = spans.find((span) => span.name.startsWith('StartWorkflow:'))!;
    expect(ancestry(start, spans)).toContain(cryptoSpan);
  });
});
