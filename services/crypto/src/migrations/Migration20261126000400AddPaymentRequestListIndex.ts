import { Migration } from '@mikro-orm/migrations';

/**
 * The merchant list's order, one account's requests newest first (created_at desc, id desc), read from an index
 * instead of sorting all of the account's rows for every page: (account_id, created_at, id), scanned backwards. It
 * leads with account_id, so it also serves the foreign key's lookups and replaces the single-column index.
 * A plain CREATE INDEX: migrations run all-or-nothing in one transaction (kit orm.ts), where CONCURRENTLY cannot run;
 * writes to payment_requests wait while it builds (seconds per million rows).
 */
export class Migration20261126000400AddPaymentRequestListIndex extends Migration {
  override up(): void {
    this.addSql(`create index "payment_requests_account_id_created_at_id_index" on "payment_requests" ("account_id", "created_at", "id");`);
    this.addSql(`drop index "payment_requests_account_id_index";`);
  }

  override down(): void {
    this.addSql(`create index "payment_requests_account_id_index" on "payment_requests" ("account_id");`);
    this.addSql(`drop index "payment_requests_account_id_created_at_id_index";`);
  }
}
