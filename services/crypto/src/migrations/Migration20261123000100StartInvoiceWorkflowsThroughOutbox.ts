import { randomUUID } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';
import { invoiceExpiryStart } from '../modules/invoice-workflow/index.js';

interface OpenInvoiceRow {
  id: number;
  created_at: Date;
  expires_at: Date;
  amount_requested: string | null;
  asset_code: string;
  account_id: number;
}

/**
 * Invoice expiry workflows are started through the workflow outbox (committed with the invoice) instead of right after
 * the commit with an expiry sweeper as the backstop. Every open invoice gets an outbox start, so one whose workflow was
 * never started gets it now; for the others Temporal refuses the duplicate id and the entry simply counts as done.
 * The crypto webhook deliveries get their owner (the account id, until now only inside the signing-secret reference).
 * Runs after the kit's outbox migrations.
 */
export class Migration20261123000100StartInvoiceWorkflowsThroughOutbox extends Migration {
  override async up(): Promise<void> {
    const open = (await this.execute(
      `select pr."id", pr."created_at", pr."expires_at", pr."amount_requested"::text as "amount_requested", a."code" as "asset_code", pr."account_id"
       from "payment_requests" pr join "assets" a on a."id" = pr."asset_id"
       where pr."type" = 'invoice' and pr."status" in ('pending', 'partial') and pr."expires_at" is not null
       order by pr."id"`,
    )) as unknown as OpenInvoiceRow[];
    for (const row of open) {
      const start = invoiceExpiryStart({
        id: Number(row.id),
        createdAt: new Date(row.created_at),
        expiresAt: new Date(row.expires_at),
        amountRequested: row.amount_requested === null ? null : row.amount_requested.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''),
        asset: { code: row.asset_code },
        account: { id: Number(row.account_id) },
      });
      await this.execute(
        `insert into "workflow_outbox" ("id", "kind", "workflow_id", "workflow_type", "task_queue", "args", "summary", "details", "created_at")
         values (?, 'start', ?, ?, ?, ?::jsonb, ?, ?, clock_timestamp()) on conflict do nothing`,
        [randomUUID(), start.workflowId, start.workflowType, start.taskQueue, JSON.stringify(start.args), start.summary ?? null, start.details ?? null],
      );
    }
    this.addSql(`update "webhook_deliveries" set "owner_id" = substring("signing_secret_ref" from 9) where "service" = 'crypto' and "owner_id" is null and "signing_secret_ref" ~ '^account:[0-9]+$';`);
  }

  override down(): void {
    // The outbox entries and owners are harmless to keep for the previous release (it ignores both).
  }
}
