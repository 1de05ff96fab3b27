import { Migration } from '@mikro-orm/migrations';

/** Idempotent creates: the Idempotency-Key of the create (unique per account) and the fingerprint of its body. */
export class Migration20260701000600AddPaymentRequestIdempotencyKeys extends Migration {
  override up(): void {
    this.addSql(`alter table "payment_requests" add column "idempotency_key" varchar(255) null, add column "idempotency_fingerprint" varchar(64) null;`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_account_id_idempotency_key_unique" unique ("account_id", "idempotency_key");`);
  }

  override down(): void {
    this.addSql(`alter table "payment_requests" drop constraint "payment_requests_account_id_idempotency_key_unique";`);
    this.addSql(`alter table "payment_requests" drop column "idempotency_key", drop column "idempotency_fingerprint";`);
  }
}
