import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TASK_QUEUES, WEBHOOK_SCHEDULES, WORKFLOW_TYPES } from '@tributary/workflows';
import {
  createOrm,
  createWebhookDeliveryActivities,
  createWebhookSender,
  enqueueWebhookDelivery,
  kitEntities,
  kitMigrations,
  migrateUp,
  redeliverWebhook,
  verifySignature,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WorkflowOutboxEntry,
} from '../../src/index.js';
import { createTestDatabase, startHttpsReceiver } from '../../src/testing/index.js';
import type { HttpsReceiver, TestDatabase } from '../../src/testing/index.js';

let db: TestDatabase;
let orm: Awaited<ReturnType<typeof createOrm>>;
let receiver: HttpsReceiver;

beforeAll(async () => {
  db = await createTestDatabase('kit_webhooks');
  orm = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: kitMigrations });
  expect(await migrateUp(orm)).toEqual(kitMigrations.map((migration) => migration.name));
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await orm?.close(true);
  await db?.drop();
});

const base = (eventId: string) => ({
  service: 'bnpl' as const,
  eventId,
  eventName: 'loan.authorized',
  endpointUrl: `${receiver.url}/bnpl`,
  signingSecretRef: 'endpoint_1',
});

describe('enqueueWebhookDelivery', () => {
  it("inserts in the caller's transaction: a rollback leaves no delivery and no workflow start", async () => {
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await enqueueWebhookDelivery(tx, { ...base('evt_rollback'), body: { event: 'loan.authorized' } });
        throw new Error('business change failed');
      }),
    ).rejects.toThrow('business change failed');
    expect(await orm.em.fork().count(WebhookDelivery, { eventId: 'evt_rollback' })).toBe(0);
    expect(await orm.em.fork().count(WorkflowOutboxEntry, { workflowId: { $like: 'webhook-bnpl-evt_rollback-%' } })).toBe(0);
  });

  it("queues the delivery workflow's start in the outbox: the service's schedule and task queue, an operator summary", async () => {
    const { delivery, outboxEntry } = await enqueueWebhookDelivery(orm.em.fork(), { ...base('evt_start'), body: '{}', endpointUrl: `${receiver.url}/secret-path?token=x` });
    const entry = await orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { id: outboxEntry.id });
    expect(entry).toMatchObject({
      kind: 'start',
      workflowType: WORKFLOW_TYPES.webhookDelivery,
      workflowId: delivery.workflowId,
      taskQueue: TASK_QUEUES.bnpl,
      args: [{ service: 'bnpl', deliveryId: delivery.id, schedule: WEBHOOK_SCHEDULES.bnpl }],
      summary: `bnpl loan.authorized to ${new URL(receiver.url).host} (delivery 1)`,
      dispatchedAt: null,
    });
    expect(entry.details).not.toContain('secret-path');
  });

  it('freezes the body, uses the service headers, and numbers deliveries of one event 1, 2, 3', async () => {
    const body = { event: 'loan.authorized', timestamp: '2025-01-01T00:00:00Z', data: { loan_id: 'ln_1', principal_cents: 1000 } };
    const [a, b] = await orm.em.fork().transactional(async (tx) => [
      (await enqueueWebhookDelivery(tx, { ...base('evt_1'), body, endpointId: 'ep_a', ownerId: '7' })).delivery,
      (await enqueueWebhookDelivery(tx, { ...base('evt_1'), body, endpointId: 'ep_b', ownerId: '7' })).delivery,
    ]);
    expect(a).toMatchObject({ deliveryNumber: 1, workflowId: 'webhook-bnpl-evt_1-1', status: 'queued', eventHeader: 'X-Service-Event', signatureHeader: 'X-Service-Signature' });
    expect(b).toMatchObject({ deliveryNumber: 2, workflowId: 'webhook-bnpl-evt_1-2' });
    expect(a!.body).toBe(JSON.stringify(body));
    const again = (await redeliverWebhook(orm.em.fork(), a!)).delivery;
    expect(again).toMatchObject({ deliveryNumber: 3, redeliveryOf: a!.id, body: a!.body, eventId: 'evt_1', endpointId: 'ep_a', ownerId: '7' });
    const fresh = (await redeliverWebhook(orm.em.fork(), a!, { body: '{"event":"loan.authorized","timestamp":"2025-02-01T00:00:00Z"}' })).delivery;
    expect(fresh).toMatchObject({ deliveryNumber: 4, body: '{"event":"loan.authorized","timestamp":"2025-02-01T00:00:00Z"}' });
  });

  it('serializes concurrent enqueues of one event (no duplicate delivery numbers)', async () => {
    const made = await Promise.all(
      Array.from({ length: 5 }, () => orm.em.fork().transactional((tx) => enqueueWebhookDelivery(tx, { ...base('evt_race'), body: '{}' }))),
    );
    expect(made.map(({ delivery }) => delivery.deliveryNumber).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('photos deliveries default to Standard Webhooks signing; bnpl and crypto keep hex HMAC; an unknown service is refused', async () => {
    const photos = await enqueueWebhookDelivery(orm.em.fork(), { ...base('evt_photos'), service: 'photos', body: '{}' });
    expect(photos.delivery).toMatchObject({ eventHeader: 'webhook-event', signatureHeader: 'webhook-signature', signatureScheme: 'standard-webhooks' });
    const bnpl = await enqueueWebhookDelivery(orm.em.fork(), { ...base('evt_bnpl_scheme'), service: 'bnpl', body: '{}' });
    expect(bnpl.delivery).toMatchObject({ signatureHeader: 'X-Service-Signature', signatureScheme: 'hmac-sha256-hex' });
    const unknown = { ...base('evt_unknown'), service: 'nope' as unknown as 'bnpl', body: '{}' };
    await expect(enqueueWebhookDelivery(orm.em.fork(), unknown)).rejects.toThrow(/headerNames/);
  });
});

describe('createWebhookDeliveryActivities (called directly, real DB and HTTPS)', () => {
  const secrets = new Map([['endpoint_1', 'whsec_one']]);
  const activities = () =>
    createWebhookDeliveryActivities({
      em: orm.em,
      sender: createWebhookSender({ allowPrivateHosts: ['localhost'] }),
      resolveSigningSecret: async (ref) => secrets.get(ref) ?? null,
    });

  it('sends the stored bytes signed, records the attempt, and a repeated attempt is not sent or recorded again', async () => {
    receiver.reset();
    receiver.setResponder(() => ({ status: 500 }));
    const { delivery } = await enqueueWebhookDelivery(orm.em.fork(), { ...base('evt_act'), body: '{"event":"loan.authorized","n":"ü"}' });
    const acts = activities();
    const input = { deliveryId: delivery.id, attemptNumber: 1, timeoutMs: 5_000, nextAttemptInMs: 60_000 };
    const first = await acts.deliverWebhookAttempt(input);
    expect(first).toMatchObject({ attemptNumber: 1, delivered: false, statusCode: 500, error: 'HTTP 500', replayed: false });
    const repeat = await acts.deliverWebhookAttempt(input);
    expect(repeat).toEqual({ ...first, replayed: true });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.body.equals(Buffer.from('{"event":"loan.authorized","n":"ü"}', 'utf8'))).toBe(true);
    expect(verifySignature('whsec_one', receiver.requests[0]!.body, String(receiver.requests[0]!.headers['x-service-signature']))).toBe(true);

    const em = orm.em.fork();
    expect(await em.count(WebhookDeliveryAttempt, { deliveryId: delivery.id })).toBe(1);
    const row = await em.findOneOrFail(WebhookDelivery, { id: delivery.id });
    expect(row).toMatchObject({ status: 'delivering', attemptCount: 1, lastStatusCode: 500 });
    expect(row.nextAttemptAt!.getTime() - row.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(60_000);

    receiver.setResponder(() => ({ status: 200 }));
    expect(await acts.deliverWebhookAttempt({ ...input, attemptNumber: 2, nextAttemptInMs: null })).toMatchObject({ delivered: true, statusCode: 200 });
    const done = await orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivery.id });
    expect(done).toMatchObject({ status: 'delivered', attemptCount: 2, nextAttemptAt: null });
    // Failing a delivered delivery is a no-op.
    await acts.markWebhookDeliveryFailed({ deliveryId: delivery.id, attempts: 2 });
    expect((await orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivery.id })).status).toBe('delivered');
  });

  it('records a failed attempt without sending when the signing secret is gone, and marks the delivery failed', async () => {
    receiver.reset();
    const { delivery } = await enqueueWebhookDelivery(orm.em.fork(), { ...base('evt_nosecret'), signingSecretRef: 'deleted_endpoint', body: '{}' });
    const acts = activities();
    expect(await acts.deliverWebhookAttempt({ deliveryId: delivery.id, attemptNumber: 1, timeoutMs: 1_000, nextAttemptInMs: null })).toMatchObject({
      delivered: false,
      error: 'no signing secret for this endpoint',
    });
    expect(receiver.requests).toHaveLength(0);
    await acts.markWebhookDeliveryFailed({ deliveryId: delivery.id, attempts: 1 });
    expect(await orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivery.id })).toMatchObject({ status: 'failed' });
  });

  it('refuses an unknown delivery as a non-retryable failure', async () => {
    await expect(
      activities().deliverWebhookAttempt({ deliveryId: '00000000-0000-4000-8000-000000000000', attemptNumber: 1, timeoutMs: 1_000, nextAttemptInMs: null }),
    ).rejects.toMatchObject({ nonRetryable: true, type: 'WebhookDeliveryNotFound' });
  });
});
