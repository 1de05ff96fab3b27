// The migration that moves webhook delivery starts to the workflow outbox, on a database in the state the previous
// release left: a delivery committed but never started gets an outbox start (so the sweeper starts it), one already
// started gets none, and the old column goes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TASK_QUEUES, WEBHOOK_SCHEDULES, WORKFLOW_TYPES } from '@tributary/workflows';
import { createOrm, kitEntities, kitMigrations, migrateUp, webhookDeliveryMigration, WorkflowOutboxEntry } from '../../src/index.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/index.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('kit_delivery_outbox_migration');
});
afterAll(async () => {
  await db?.drop();
});

async function insertDelivery(orm: Awaited<ReturnType<typeof createOrm>>, eventId: string, startedAt: Date | null): Promise<string> {
  const id = randomUUID();
  await orm.em.getConnection().execute(
    `insert into webhook_deliveries (id, service, event_id, event_name, delivery_number, endpoint_url, body, event_header, signature_header, signing_secret_ref, status, workflow_id, workflow_started_at, created_at, updated_at)
     values (?, 'crypto', ?, 'payment.paid', 1, ?, '{}', 'X-Gateway-Event', 'X-Gateway-Signature', 'account:1', 'queued', ?, ?, now(), now())`,
    [id, eventId, 'https://shop.example/hooks?token=secret', `webhook-crypto-${eventId}-1`, startedAt],
  );
  return id;
}

describe('StartWebhookDeliveriesThroughOutbox', () => {
  it('queues the start of every delivery never started, none for started ones, and drops workflow_started_at', async () => {
    const before = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: [webhookDeliveryMigration] });
    await migrateUp(before);
    const unstarted = await insertDelivery(before, 'evt_unstarted', null);
    await insertDelivery(before, 'evt_started', new Date());
    await before.close();

    const orm = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: kitMigrations });
    try {
      expect(await migrateUp(orm)).toEqual(kitMigrations.slice(1).map((migration) => migration.name));
      const entries = await orm.em.fork().find(WorkflowOutboxEntry, {});
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        kind: 'start',
        workflowId: 'webhook-crypto-evt_unstarted-1',
        workflowType: WORKFLOW_TYPES.webhookDelivery,
        taskQueue: TASK_QUEUES.crypto,
        args: [{ service: 'crypto', deliveryId: unstarted, schedule: WEBHOOK_SCHEDULES.crypto }],
        summary: 'crypto payment.paid to shop.example (delivery 1)',
        dispatchedAt: null,
      });
      const columns = await orm.em.getConnection().execute<Array<{ column_name: string }>>(
        `select column_name from information_schema.columns where table_name = 'webhook_deliveries' and column_name in ('workflow_started_at', 'owner_id')`,
      );
      expect(columns.map((column) => column.column_name)).toEqual(['owner_id']);
    } finally {
      await orm.close();
    }
  });
});
