import { Migration } from '@mikro-orm/migrations';

/**
 * Payment requests (invoices and donation links, each with its own receive address) and the payments credited to
 * them, unique on (chain, txid, output_index) so a payment reported twice is recorded once. Enum values are written
 * out, not imported, so this migration never changes after it shipped.
 */
export class Migration20260701000400CreatePaymentRequests extends Migration {
  override up(): void {
    this.addSql(`create table "payment_requests" ("id" serial primary key, "slug" varchar(32) not null, "account_id" int not null, "asset_id" int not null, "type" text not null, "status" text not null, "title" varchar(191) not null, "description" text null, "reference" varchar(128) null, "address" varchar(120) not null, "address_index" bigint not null, "amount_requested" numeric(78,18) null, "amount_paid" numeric(78,18) not null, "expires_at" timestamptz null, "paid_at" timestamptz null, "cancelled_at" timestamptz null, "webhook_url" varchar(2048) null, "redirect_url" varchar(2048) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_slug_unique" unique ("slug");`);
    this.addSql(`create index "payment_requests_account_id_index" on "payment_requests" ("account_id");`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_type_check" check ("type" in ('invoice', 'donation'));`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_status_check" check ("status" in ('pending', 'partial', 'paid', 'overpaid', 'expired', 'cancelled'));`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "payment_requests" add constraint "payment_requests_asset_id_foreign" foreign key ("asset_id") references "assets" ("id");`);

    this.addSql(`create table "payments" ("id" serial primary key, "payment_request_id" int not null, "chain" text not null, "txid" varchar(128) not null, "output_index" int not null, "address" varchar(120) not null, "amount" numeric(78,18) not null, "confirmations" int not null, "counted" boolean not null default false, "counted_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "payments_payment_request_id_index" on "payments" ("payment_request_id");`);
    this.addSql(`alter table "payments" add constraint "payments_chain_txid_output_index_unique" unique ("chain", "txid", "output_index");`);
    this.addSql(`alter table "payments" add constraint "payments_chain_check" check ("chain" in ('bitcoin', 'ethereum', 'litecoin', 'polygon'));`);
    this.addSql(`alter table "payments" add constraint "payments_payment_request_id_foreign" foreign key ("payment_request_id") references "payment_requests" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql('drop table if exists "payments" cascade;');
    this.addSql('drop table if exists "payment_requests" cascade;');
  }
}
