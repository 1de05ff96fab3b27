// Workers killed with SIGKILL (issue 13 §3): photos and crypto run as real `serve` and `worker` processes on a Temporal
// dev server of this file's own. photos' webhook deliveries are killed between their first (refused) attempt and the
// retry photos' schedule puts 5 s later; crypto's worker is killed while an invoice's one-minute expiry timer is
// pending. New workers carry on: every delivery arrives on its retry, not before it was due, exactly once as a
// success (its webhook-id the same on both attempts), and the invoice expires, not before its deadline.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { createTestDatabase, waitFor, type TestDatabase } from '@tributary/kit/testing';
import { WEBHOOK_SCHEDULES } from '@tributary/workflows';
import type { ServiceName } from '@tributary/stack';
import { startFaultStack, startRetryingReceiver, WEBHOOK_TEST_HOSTS, type FaultStack, type RetryingReceiver, type PrivateTemporal, type ServiceProcess, queryDatabase } from './support/fault-stack.js';
/** Events queued before the kill. */
const EVENTS = 3;
/** Long enough for a one-minute invoice timer and a worker restart; a timer that never fires fails the wait. */
const TIMER_WAIT_MS = 120_000;

let stack: FaultStack;
let temporal: PrivateTemporal;
let receiver: RetryingReceiver;
const databases: Partial<Record<ServiceName, TestDatabase>> = {};
const creds: Partial<Record<ServiceName, Record<string, string>>> = {};
const servers: Partial<Record<ServiceName, ServiceProcess>> = {};
const workers: Partial<Record<ServiceName, ServiceProcess>> = {};
const envOf: Partial<Record<ServiceName, NodeJS.ProcessEnv>> = {};

function query<T extends pg.QueryResultRow>(name: ServiceName, sql: string, params: unknown[] = []): Promise<T[]> {
  return queryDatabase<T>(databases[name]!.url, sql, params);
}

async function post(name: ServiceName, path: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${servers[name]!.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  expect({ path, status: res.status }).toEqual({ path, status: 201 });
  return parsed;
}

beforeAll(async () => {
  stack = await startFaultStack('worker-kill');
  temporal = await stack.temporal();
  receiver = await startRetryingReceiver();
  await Promise.all(
    (['photos', 'crypto'] as const).map(async (name) => {
      databases[name] = await createTestDatabase(`worker_kill_${name}`);
      envOf[name] = { DATABASE_URL: databases[name].url, TEMPORAL_ADDRESS: temporal.address, WEBHOOK_ALLOW_PRIVATE_HOSTS: WEBHOOK_TEST_HOSTS };
      creds[name] = (await stack.prepareDatabase(name, databases[name].url, envOf[name])) as Record<string, string>;
      servers[name] = await stack.serve(name, envOf[name]);
      workers[name] = stack.worker(name, envOf[name]);
    }),
  );
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  for (const db of Object.values(databases)) await db.drop();
});

describe('a worker killed with SIGKILL', () => {
  it('photos: deliveries between attempts arrive on their retry after the restart, each once; crypto: the pending invoice timer fires', async () => {
    // crypto's timer: an invoice that expires one minute from now, its worker killed at once.
    const invoice = (await post('crypto', '/api/merchant/v1/payment-requests', creds.crypto!.api_key!, { asset_id: 1, title: 'Expires while the worker is away', amount: '0.015', ttl_minutes: 1 })) as {
      payment_request: { id: string };
    };
    const [created] = await query<{ expires_at: Date }>('crypto', 'select expires_at from payment_requests where slug = $1', [invoice.payment_request.id]);
    const deadline = created!.expires_at;
    await workers.crypto!.kill();

    // photos' deliveries: each first attempt refused and recorded, then the worker killed before the 5 s retry.
    await post('photos', '/api/v1/webhook-endpoints', creds.photos!.token!, { url: `${receiver.url}/photos-hook`, events: ['project.created'] });
    for (let i = 0; i < EVENTS; i += 1) await post('photos', '/api/v1/projects', creds.photos!.token!, { name: `Killed worker site ${i}` });
    const failedFirst = await waitFor(
      () => query<{ n: string }>('photos', "select count(*) as n from webhook_delivery_attempts where outcome = 'failed'").then(([row]) => Number(row!.n)),
      (n) => n >= EVENTS,
    );
    expect(failedFirst).toBe(EVENTS);
    await workers.photos!.kill();
    const seenWhileDead = receiver.requests.length;
    // Past every retry's due time with no worker: nothing may arrive meanwhile.
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_SCHEDULES.photos.delaysMs[1]! + 1_000));
    expect(receiver.requests.length).toBe(seenWhileDead);

    workers.photos = stack.worker('photos', envOf.photos!);
    workers.crypto = stack.worker('crypto', envOf.crypto!);

    const delivered = await waitFor(
      () => query<{ id: string; status: string }>('photos', 'select id, status from webhook_deliveries'),
      (rows) => rows.length === EVENTS && rows.every((r) => r.status === 'delivered'),
      60_000,
    );
    expect(delivered.map((d) => d.status)).toEqual(Array(EVENTS).fill('delivered'));
    const byId = receiver.arrivals();
    // One refused attempt and one accepted per event: nothing missing, nothing sent again once it was accepted.
    expect([...byId.values()].map((arrivals) => arrivals.length)).toEqual(Array(EVENTS).fill(2));
    for (const [first, second] of byId.values()) expect(second!.getTime() - first!.getTime()).toBeGreaterThanOrEqual(WEBHOOK_SCHEDULES.photos.delaysMs[1]!);

    const expired = await waitFor(
      () => query<{ status: string }>('crypto', 'select status from payment_requests where slug = $1', [invoice.payment_request.id]).then(([row]) => ({ status: row!.status, at: new Date() })),
      (r) => r.status === 'expired',
      TIMER_WAIT_MS,
    );
    expect(expired.status).toBe('expired');
    expect(expired.at.getTime()).toBeGreaterThanOrEqual(new Date(deadline).getTime());
  }, 300_000);
});
