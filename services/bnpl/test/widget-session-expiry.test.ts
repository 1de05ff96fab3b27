// The widget session expiry workflow end to end on the time-skipping Temporal test server: the real service over HTTP
// on its own database (its workflow outbox dispatching to that server), the real WidgetSessionService behind the real
// activity, and finally bnpl's real worker (startWorker) expiring a short-lived session in the database.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tsToMs } from '@temporalio/common/lib/time.js';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowOutboxEntry, createLogger, createWorkflowOutbox, enqueueWorkflowSignal, type WorkflowOutbox } from '@tributary/kit';
import { waitFor } from '@tributary/kit/testing';
import { WIDGET_SESSION_SIGNALS, widgetSessionWorkflowId, type ExpireWidgetSessionInput, type WidgetSessionExpiryWorkflowResult } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { createServiceWorker } from '@tributary/workflows/worker';
import { WidgetSession, WidgetSessionService, createWidgetSessionActivities, widgetSessionExpirySignal } from '../src/modules/widget-sessions/index.js';
import { startWorker } from '../src/worker.js';
import { createApiKey, createMerchant, startHarness, type Harness, type TestApiKey, type TestMerchant } from './helpers.js';

const MINUTE = 60_000;
const cart = { amount_cents: 12_000, currency: 'GBP', order_reference: 'exp-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' };

let env: TestWorkflowEnvironment;
let h: Harness;
let shop: TestMerchant;
let key: TestApiKey;
let outbox: WorkflowOutbox;
/** expireWidgetSessionIfDue calls per session id (test workers of part one). */
const activityCalls = new Map<string, number>();

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  // The service's own outbox dispatches to the test server, so what it starts and signals reaches the workers below.
  h = await startHarness({ env: { TEMPORAL_ADDRESS: env.address } });
  shop = await createMerchant(h, 'Expiry Shop');
  key = await createApiKey(h, shop, 'test');
  outbox = createWorkflowOutbox({ em: h.orm.em, client: env.client });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/**
 * A session created over HTTP, its expiry workflow started as the worker's sweeper starts it (the create leaves the
 * start queued) unless `startQueued` is false.
 */
async function createOverHttp({ startQueued = true } = {}): Promise<string> {
  const res = await fetch(`${h.service.url}/api/v1/widget/sessions`, { method: 'POST', headers: { ...key.keys, 'content-type': 'application/json' }, body: JSON.stringify(cart) });
  expect(res.status).toBe(201);
  const token = ((await res.json()) as { session_token: string }).session_token;
  const [start] = await h.orm.em.fork().find(WorkflowOutboxEntry, { workflowId: await workflowIdOf(token), kind: 'start' });
  expect(start?.dispatchedAt).toBeNull();
  if (startQueued) expect((await outbox.dispatch([start!.id])).dispatched).toEqual([start!.id]);
  return token;
}

/** Waits until the service's after-commit dispatch has handed the session's start (or signal) to Temporal. */
async function dispatched(token: string, kind: 'start' | 'signal'): Promise<void> {
  const workflowId = await workflowIdOf(token);
  await waitFor(() => h.orm.em.fork().find(WorkflowOutboxEntry, { workflowId, kind }), (entries) => entries.length > 0 && entries.every((e) => e.dispatchedAt !== null));
}

/** The real activities; the service's clock is the Temporal server's (time-skipped) clock when the activity runs. */
async function testWorker() {
  let serverNow = new Date();
  const real = createWidgetSessionActivities({ sessions: new WidgetSessionService(h.orm.em.fork(), { now: () => serverNow }) });
  const activities = {
    async expireWidgetSessionIfDue(input: ExpireWidgetSessionInput) {
      activityCalls.set(input.sessionId, (activityCalls.get(input.sessionId) ?? 0) + 1);
      serverNow = new Date(await env.currentTimeMs());
      return real.expireWidgetSessionIfDue(input);
    },
  };
  return createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
}

const stored = (token: string) => h.orm.em.fork().findOneOrFail(WidgetSession, { token });
/** The session's workflow is named by its id, never its token. */
const workflowIdOf = async (token: string): Promise<string> => widgetSessionWorkflowId((await stored(token)).id);
const handleOf = async (token: string): Promise<WorkflowHandle> => env.client.workflow.getHandle(await workflowIdOf(token));
const readStatus = async (token: string) => {
  const res = await fetch(`${h.service.url}/api/v1/widget/sessions/${token}`, { headers: key.pk });
  return ((await res.json()) as { status: string }).status;
};

/** Everything the workflow's history holds as text: ids, names and every payload (input, activity arguments, results). */
async function historyText(handle: WorkflowHandle): Promise<string> {
  const parts: string[] = [handle.workflowId];
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) parts.push(Buffer.from(value).toString('utf8'));
    else if (typeof value === 'string') parts.push(value);
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) walk(inner);
  };
  walk((await handle.fetchHistory()).events);
  return parts.join('\n');
}

async function timerDurations(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

describe('part one: the 30-minute timer with the real activity (time skipped)', () => {
  it('a session created over HTTP is stored expired after one durable 30-minute timer; the activity ran once', async () => {
    const token = await createOverHttp();
    const session = await stored(token);
    const described = await (await handleOf(token)).describe();
    expect({ type: described.type, taskQueue: described.taskQueue }).toEqual({ type: 'widgetSessionExpiryWorkflow', taskQueue: 'bnpl' });

    const worker = await testWorker();
    const result = await worker.runUntil((await handleOf(token)).result() as Promise<WidgetSessionExpiryWorkflowResult>);
    expect(result).toEqual({ outcome: 'expired', status: 'expired' });
    const [timer, ...more] = await timerDurations(await handleOf(token));
    expect(more).toEqual([]);
    expect(timer).toBeGreaterThan(29 * MINUTE);
    expect(timer).toBeLessThanOrEqual(30 * MINUTE);
    expect(activityCalls.get(session.id)).toBe(1);
    // The token opens the shopper's checkout: it is in neither the workflow id nor anything its history holds.
    const history = await historyText(await handleOf(token));
    expect(history).toContain(session.id);
    expect(history).not.toContain(token);
    expect((await stored(token)).status).toBe('expired');
    expect(await readStatus(token)).toBe('expired');
    // Running the step again changes nothing (idempotent).
    expect((await new WidgetSessionService(h.orm.em.fork()).expireIfDue(session.id)).outcome).toBe('final');
  });

  it('cancel over HTTP queues the cancelled signal; the workflow ends without expiring', async () => {
    const token = await createOverHttp();
    const res = await fetch(`${h.service.url}/api/v1/widget/sessions/${token}/cancel`, { method: 'POST', headers: key.pk });
    expect(res.status).toBe(200);
    await dispatched(token, 'signal');
    const worker = await testWorker();
    expect(await worker.runUntil((await handleOf(token)).result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'cancelled', status: null });
    expect(activityCalls.get((await stored(token)).id)).toBeUndefined();
    expect((await stored(token)).status).toBe('cancelled');
  });

  it('a cancel before the sweeper started the workflow sends the start first, then the signal: the workflow ends cancelled', async () => {
    const token = await createOverHttp({ startQueued: false });
    const res = await fetch(`${h.service.url}/api/v1/widget/sessions/${token}/cancel`, { method: 'POST', headers: key.pk });
    expect(res.status).toBe(200);
    await dispatched(token, 'signal');
    await dispatched(token, 'start');
    const worker = await testWorker();
    expect(await worker.runUntil((await handleOf(token)).result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'cancelled', status: null });
    expect(activityCalls.get((await stored(token)).id)).toBeUndefined();
    expect((await stored(token)).status).toBe('cancelled');
  });

  it('the authorized signal (as checkout queues it) ends the workflow; the session is left as checkout stored it', async () => {
    const token = await createOverHttp();
    const em = h.orm.em.fork();
    const signal = await em.transactional(async (tx) => {
      await tx.nativeUpdate(WidgetSession, { token }, { status: 'authorized', authorizedAt: new Date() });
      return enqueueWorkflowSignal(tx, widgetSessionExpirySignal((await tx.findOneOrFail(WidgetSession, { token })).id, WIDGET_SESSION_SIGNALS.authorized));
    });
    expect((await outbox.dispatch([signal.id])).failed).toEqual([]);
    const worker = await testWorker();
    expect(await worker.runUntil((await handleOf(token)).result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'authorized', status: null });
    expect((await stored(token)).status).toBe('authorized');
  });

  it('an authorized session whose signal was lost is not expired when the timer fires', async () => {
    const token = await createOverHttp();
    await h.orm.em.fork().nativeUpdate(WidgetSession, { token }, { status: 'authorized', authorizedAt: new Date() });
    const worker = await testWorker();
    expect(await worker.runUntil((await handleOf(token)).result() as Promise<WidgetSessionExpiryWorkflowResult>)).toEqual({ outcome: 'unchanged', status: 'authorized' });
    expect((await stored(token)).status).toBe('authorized');
  });

  it('expireIfDue before the deadline answers not_due and changes nothing; an unknown session is final (not_found)', async () => {
    const token = await createOverHttp();
    const session = await stored(token);
    expect((await new WidgetSessionService(h.orm.em.fork()).expireIfDue(session.id)).outcome).toBe('not_due');
    expect((await stored(token)).status).toBe('initialized');
    const activities = createWidgetSessionActivities({ sessions: new WidgetSessionService(h.orm.em.fork()) });
    expect(await activities.expireWidgetSessionIfDue({ sessionId: crypto.randomUUID() })).toEqual({ outcome: 'final', status: 'not_found', expiresAt: null });
    expect(await activities.expireWidgetSessionIfDue({ sessionId: 'not-a-uuid' })).toEqual({ outcome: 'final', status: 'not_found', expiresAt: null });
    await (await handleOf(token)).terminate('test over');
  });
});

describe('part two: bnpl’s real worker', () => {
  it('expires a real session in the database when its (short) lifetime is over', async () => {
    const worker = await startWorker({
      orm: h.orm,
      logger: createLogger({ service: 'bnpl', level: 'silent' }),
      config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: [] },
    });
    try {
      // Created through the same domain path as the route, with a 3-second lifetime instead of 30 minutes.
      // Its start is left queued; the worker's own outbox sweeper starts the workflow (every 5 s, entries 10 s old).
      const sessions = new WidgetSessionService(h.orm.em.fork(), { outbox, lifetimeMs: 3_000 });
      const { session } = await sessions.create({ merchantId: shop.merchant.id, livemode: false }, cart);
      expect((await stored(session.token)).status).toBe('initialized');
      await dispatched(session.token, 'start');
      const expired = await waitFor(() => stored(session.token), (s) => s.status === 'expired', 30_000);
      expect(expired.updatedAt.getTime()).toBeGreaterThanOrEqual(session.expiresAt.getTime());
      expect(await (await handleOf(session.token)).result()).toEqual({ outcome: 'expired', status: 'expired' });
      expect(await readStatus(session.token)).toBe('expired');
    } finally {
      await worker.shutdown();
    }
  }, 90_000);
});
