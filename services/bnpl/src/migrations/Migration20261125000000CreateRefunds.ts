import { Migration } from '@mikro-orm/migrations';

/** Refunds of loans (spec "Refund"): requested, processed by the workflow `refund-<id>`, processed or failed. */
export class Migration20261125000000CreateRefunds extends Migration {
  override up(): void {
    this.addSql(
      `create table "refunds" ("id" uuid not null, "loan_id" uuid not null, "merchant_id" uuid not null, "livemode" boolean not null, "amount_cents" int not null, "currency" varchar(3) not null, "reason" varchar(500) not null, "status" text not null, "failure_reason" varchar(255) null, "returned_to_shopper_cents" int not null default 0, "idempotency_key" varchar(255) null, "idempotency_fingerprint" varchar(64) null, "processed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "refunds_merchant_id_created_at_index" on "refunds" ("merchant_id", "created_at");`);
    this.addSql(`create index "refunds_loan_id_index" on "refunds" ("loan_id");`);
    this.addSql(`alter table "refunds" add constraint "refunds_merchant_id_idempotency_key_unique" unique ("merchant_id", "idempotency_key");`);
    this.addSql(`alter table "refunds" add constraint "refunds_loan_id_foreign" foreign key ("loan_id") references "loans" ("id") on delete cascade;`);
    this.addSql(`alter table "refunds" add constraint "refunds_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "refunds" add constraint "refunds_status_check" check ("status" in ('requested', 'processing', 'processed', 'failed'));`);
  }

  override down(): void {
    this.addSql('drop table if exists "refunds" cascade;');
  }
}
