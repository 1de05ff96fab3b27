import { Migration } from '@mikro-orm/migrations';

/** Finding one account's requests by reference (the list's `reference` filter) without scanning the account's rows. */
export class Migration20260701000700AddPaymentRequestReferenceIndex extends Migration {
  override up(): void {
    this.addSql(`create index "payment_requests_account_id_reference_index" on "payment_requests" ("account_id", "reference");`);
  }

  override down(): void {
    this.addSql(`drop index "payment_requests_account_id_reference_index";`);
  }
}
