// The Temporal server stopped during traffic (issue 13 §3): the three services run as real `serve` and `worker`
// processes on a Temporal dev server of this file's own (SQLite, so a restart keeps its history). While it is away,
// creates that start a workflow still answer 201: the start waits in the workflow outbox. Once it is back the
// workers' sweepers dispatch them: every workflow exists, and photos' webhook deliveries (refused once, so each waits
// on its 5 s retry timer) arrive on schedule, once each as a success.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import type pg from 'pg';
import { createTestDatabase, waitFor, type TestDatabase } from '@tributary/kit/testing';
import { TASK_QUEUES, WEBHOOK_SCHEDULES } from '@tributary/workflows';
import type { ServiceName } from '@tributary/stack';
import { startFaultStack, startRetryingReceiver, waitForWorker, WEBHOOK_TEST_HOSTS, type FaultStack, type PrivateTemporal, type RetryingReceiver, type ServiceProcess, queryDatabase } from './support/fault-stack.js';

/** Creates per service while Temporal is away. */
const CREATES = 3;
/** The workers' outbox sweeper runs every 5 s for entries older than 10 s; a backlog drains at Temporal's pace. */
const DISPATCH_WAIT_MS = 120_000;
const SERVICES = ['bnpl', 'crypto', 'photos'] as const;

let stack: FaultStack;
let temporal: PrivateTemporal;
let receiver: RetryingReceiver;
const databases: Partial<Record<ServiceName, TestDatabase>> = {};
const creds: Partial<Record<ServiceName, Record<string, string>>> = {};
const servers: Partial<Record<ServiceName, ServiceProcess>> = {};

const creates: Record<ServiceName, { path: string; headers: () => Record<string, string>; body: (i: number) => unknown }> = {
  crypto: { path: '/api/merchant/v1/payment-requests', headers: () => ({ authorization: `Bearer ${creds.crypto!.api_key}` }), body: (i) => ({ asset_id: 1, title: `Order ${i}`, amount: '0.015' }) },
  bnpl: {
    path: '/api/v1/widget/sessions',
    headers: () => ({ authorization: `Bearer ${creds.bnpl!.secret_key}`, 'x-merchant-public-key': creds.bnpl!.public_key! }),
    body: (i) => ({ amount_cents: 25_000, currency: 'EUR', order_reference: `order-${i}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' }),
  },
  photos: { path: '/api/v1/projects', headers: () => ({ authorization: `Bearer ${creds.photos!.token}` }), body: (i) => ({ name: `Site ${i}` }) },
};

function query<T extends pg.QueryResultRow>(name: ServiceName, sql: string): Promise<T[]> {
  return queryDatabase<T>(databases[name]!.url, sql);
}

async function create(name: ServiceName, i: number): Promise<number> {
  const { path, headers, body } = creates[name];
  const res = await fetch(`${servers[name]!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers() },
    body: JSON.stringify(body(i)),
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Workflow ids of the starts each service's outbox holds, and how many are still waiting for Temporal. */
async function outbox(name: ServiceName): Promise<{ workflowIds: string[]; waiting: number }> {
  const rows = await query<{ workflow_id: string; dispatched_at: Date | null }>(name, "select workflow_id, dispatched_at from workflow_outbox where kind = 'start'");
  return { workflowIds: rows.map((r) => r.workflow_id), waiting: rows.filter((r) => r.dispatched_at === null).length };
}

beforeAll(async () => {
  stack = await startFaultStack('temporal-outage');
  temporal = await stack.temporal();
  receiver = await startRetryingReceiver();
  await Promise.all(
    SERVICES.map(async (name) => {
      databases[name] = await createTestDatabase(`temporal_outage_${name}`);
      const env = { DATABASE_URL: databases[name].url, TEMPORAL_ADDRESS: temporal.address, WEBHOOK_ALLOW_PRIVATE_HOSTS: WEBHOOK_TEST_HOSTS, CRYPTO_MERCHANT_RATE_LIMIT: '1000000' };
      creds[name] = (await stack.prepareDatabase(name, databases[name].url, env)) as Record<string, string>;
      servers[name] = await stack.serve(name, env);
      stack.worker(name, env);
      // Polling before Temporal goes away: a worker still starting then exits on its first refused connection.
      await waitForWorker(temporal.address, TASK_QUEUES[name]);
    }),
  );
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  for (const db of Object.values(databases)) await db.drop();
});

describe('the Temporal server stopped during traffic', () => {
  it('creates still answer 201; once it is back every queued workflow exists and the webhook retry timers fire on schedule', async () => {
    const hook = await fetch(`${servers.photos!.url}/api/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creds.photos!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/photos-hook`, events: ['project.created'] }),
    });
    expect(hook.status).toBe(201);

    await temporal.stop();
    for (const name of SERVICES) {
      const statuses = await Promise.all(Array.from({ length: CREATES }, (_, i) => create(name, i)));
      expect({ name, statuses }).toEqual({ name, statuses: Array(CREATES).fill(201) });
    }
    for (const name of SERVICES) expect({ name, waiting: (await outbox(name)).waiting >= CREATES }).toEqual({ name, waiting: true });
    expect(receiver.requests).toHaveLength(0);

    await temporal.start();
    for (const name of SERVICES) {
      const state = await waitFor(() => outbox(name), (o) => o.waiting === 0, DISPATCH_WAIT_MS);
      expect({ name, waiting: state.waiting }).toEqual({ name, waiting: 0 });
    }
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const client = new Client({ connection });
      for (const name of SERVICES) {
        for (const workflowId of (await outbox(name)).workflowIds) {
          const described = await client.workflow.getHandle(workflowId).describe();
          expect({ workflowId, found: described.workflowId }).toEqual({ workflowId, found: workflowId });
        }
      }
    } finally {
      await connection.close();
    }

    // Each project.created refused once, then accepted on the retry its 5 s timer brought, and never sent again.
    const delivered = await waitFor(
      () => query<{ status: string }>('photos', 'select status from webhook_deliveries'),
      (rows) => rows.length === CREATES && rows.every((r) => r.status === 'delivered'),
      60_000,
    );
    expect(delivered.map((d) => d.status)).toEqual(Array(CREATES).fill('delivered'));
    const arrivals = [...receiver.arrivals().values()];
    expect(arrivals.map((times) => times.length)).toEqual(Array(CREATES).fill(2));
    for (const [first, second] of arrivals) expect(second!.getTime() - first!.getTime()).toBeGreaterThanOrEqual(WEBHOOK_SCHEDULES.photos.delaysMs[1]!);
  }, 300_000);
});
