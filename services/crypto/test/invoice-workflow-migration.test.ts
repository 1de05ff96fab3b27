// The migration that starts invoice expiry workflows through the outbox, on a database in the state the previous
// release left: every open invoice gets an outbox start (Temporal refuses the ids that already run), closed invoices and
// donations get none, and crypto's webhook deliveries get their owner.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createOrm, migrateUp, WebhookDelivery, WorkflowOutboxEntry } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { TASK_QUEUES, WORKFLOW_TYPES, invoiceWorkflowId } from '@tributary/workflows';
import { migrations } from '../src/migrations/index.js';
import { entities } from '../src/service.js';

const MIGRATION = 'Migration20261123000100StartInvoiceWorkflowsThroughOutbox';
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('crypto_invoice_outbox_migration');
});
afterAll(async () => {
  await db?.drop();
});

describe(MIGRATION, () => {
  it('queues the start of every open invoice and fills in the owner of crypto deliveries', async () => {
    const before = await createOrm({ clientUrl: db.url, entities, migrations: migrations.filter((migration) => migration.name !== MIGRATION) });
    await migrateUp(before);
    const sql = (query: string, params: unknown[] = []) => before.em.getConnection().execute(query, params);
    const [account] = await sql(`insert into accounts (name, status, created_at, updated_at) values ('Legacy', 'active', now(), now()) returning id`);
    const accountId = Number(account!.id);
    const expiresAt = new Date(Date.now() + 3_600_000);
    const createdAt = new Date('2026-11-20T08:00:00.250Z');
    const insert = async (slug: string, type: string, status: string, amount: string | null, deadline: Date | null) => {
      const [row] = await sql(
        `insert into payment_requests (slug, account_id, asset_id, type, status, title, chain, network, address, address_index, amount_requested, amount_paid, expires_at, created_at, updated_at)
         values (?, ?, 1, ?, ?, 'Order', 'bitcoin', 'testnet', ?, 0, ?, 0, ?, ?, now()) returning id`,
        [slug, accountId, type, status, `tb1q${slug.toLowerCase()}`, amount, deadline, createdAt],
      );
      return { id: Number(row!.id), createdAt };
    };
    const open = await insert('OpenInvoice00000000000001', 'invoice', 'pending', '0.50000000', expiresAt);
    const part = await insert('PartInvoice00000000000002', 'invoice', 'partial', '1', expiresAt);
    await insert('PaidInvoice00000000000003', 'invoice', 'paid', '1', expiresAt);
    await insert('Donation0000000000000004', 'donation', 'pending', null, null);
    await sql(
      `insert into webhook_deliveries (id, service, event_id, event_name, delivery_number, endpoint_url, body, event_header, signature_header, signing_secret_ref, status, workflow_id, created_at, updated_at)
       values (?, 'crypto', 'e1', 'payment.paid', 1, 'https://shop.example/h', '{}', 'X-Gateway-Event', 'X-Gateway-Signature', ?, 'delivered', 'webhook-crypto-e1-1', now(), now())`,
      [randomUUID(), `account:${accountId}`],
    );
    await before.close();

    const orm = await createOrm({ clientUrl: db.url, entities, migrations });
    try {
      expect(await migrateUp(orm)).toEqual([MIGRATION]);
      const starts = await orm.em.fork().find(WorkflowOutboxEntry, {}, { orderBy: { workflowId: 'asc' } });
      expect(starts.map((entry) => entry.workflowId)).toEqual([invoiceWorkflowId(open), invoiceWorkflowId(part)]);
      expect(starts[0]).toMatchObject({
        kind: 'start',
        workflowType: WORKFLOW_TYPES.invoiceExpiry,
        taskQueue: TASK_QUEUES.crypto,
        args: [{ expiresAt: expiresAt.toISOString(), paymentRequestId: open.id }],
        summary: `Invoice ${open.id}: 0.5 BTC, expires ${expiresAt.toISOString()}`,
        dispatchedAt: null,
      });
      expect(await orm.em.fork().findOneOrFail(WebhookDelivery, { eventId: 'e1' })).toMatchObject({ ownerId: String(accountId) });
    } finally {
      await orm.close();
    }
  });
});
