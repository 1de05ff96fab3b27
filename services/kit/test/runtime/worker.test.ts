import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Connection } from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger, enqueueWebhookDelivery, metricsRegistry, migrateUp, verifySignature, WebhookDelivery, WorkflowOutboxEntry } from '../../src/index.js';
import { DEFAULT_MAX_CACHED_WORKFLOWS, openServiceDatabase, startServiceWorker, type RunningWorker } from '../../src/runtime/index.js';
import { createTestDatabase, startHttpsReceiver, waitFor, type HttpsReceiver, type TestDatabase } from '../../src/testing/index.js';
import { NOTES_SECRET, notesService } from '../fixtures/notes-service.js';
import { installTestRuntime } from '@tributary/workflows/testing';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const config = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: ['127.0.0.1'] };
const logger = createLogger({ service: 'kit-worker-test', level: 'silent' });
let db: TestDatabase;
let orm: MikroORM;
let receiver: HttpsReceiver;
let connection: Connection;
let running: RunningWorker | undefined;

beforeAll(async () => {
  installTestRuntime();
  db = await createTestDatabase('kit_runtime_worker');
  orm = await openServiceDatabase(notesService, db.url);
  await migrateUp(orm);
  receiver = await startHttpsReceiver();
  connection = await Connection.connect({ address });
});
afterAll(async () => {
  await running?.shutdown();
  await connection?.close();
  await receiver?.close();
  await orm?.close();
  await db?.drop();
});

describe('startServiceWorker', () => {
  it('polls the service’s task queue, and its outbox sweeper starts and delivers a delivery that was committed but never dispatched', async () => {
    const eventId = `evt_sweep_${Date.now()}`;
    const { delivery, outboxEntry } = await orm.em.fork().transactional((tx) =>
      enqueueWebhookDelivery(tx, {
        service: 'bnpl',
        eventId,
        eventName: 'loan.authorized',
        endpointUrl: `${receiver.url}/hook`,
        signingSecretRef: 'notes_endpoint',
        body: { event: 'loan.authorized', id: eventId },
      }),
    );
    expect((await orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { id: outboxEntry.id })).dispatchedAt ?? null).toBeNull();

    running = await startServiceWorker(notesService, { orm, logger, config, sweeper: { intervalMs: 250, olderThanMs: 0 } });
    const identity = running.worker.options.identity;
    const pollers = await waitFor(
      async () => {
        const res = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: 'bnpl' }, taskQueueType: 1 });
        return (res.pollers ?? []).map((p) => p.identity ?? '');
      },
      (identities) => identities.includes(identity),
    );
    expect(pollers).toContain(identity);
    // Long-waiting workflows are not all kept in memory (DEFAULT_MAX_CACHED_WORKFLOWS, the soak benchmark's finding).
    expect(running.worker.options.maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_WORKFLOWS);

    const row = await waitFor(
      () => orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivery.id }),
      (found) => found.status === 'delivered',
    );
    expect((await orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { id: outboxEntry.id })).dispatchedAt).toBeInstanceOf(Date);
    expect(row.status).toBe('delivered');
    const received = receiver.requests.filter((request) => request.body.toString('utf8').includes(eventId));
    expect(received).toHaveLength(1);
    expect(verifySignature(NOTES_SECRET, received[0]!.body, String(received[0]!.headers['x-service-signature']))).toBe(true);
    // The sweeper's start and the delivery's first attempt, in the service's metrics.
    const metrics = await metricsRegistry.metrics();
    expect(metrics).toMatch(/^tributary_workflow_outbox_dispatches_total\{service="bnpl",kind="start",outcome="dispatched"\} [1-9]/m);
    expect(metrics).toMatch(/^tributary_webhook_delivery_attempts_total\{service="bnpl",outcome="delivered",attempt="1"\} 1$/m);

    await running.shutdown();
    expect(running.worker.getState()).toBe('STOPPED');
    await expect(running.done).resolves.toBeUndefined();
    running = undefined;
  }, 120_000);

  it('fails (releasing what it opened) when Temporal is unreachable', async () => {
    await expect(
      startServiceWorker(notesService, { orm, logger, config: { ...config, TEMPORAL_ADDRESS: '127.0.0.1:1' } }),
    ).rejects.toThrow();
  }, 60_000);
});
