import { Migration } from '@mikro-orm/migrations';

/** Checkout: merchants' plan switches, widget sessions, and the loans (with installments) checkout books. */
export class Migration20261123000000CreateCheckout extends Migration {
  override up(): void {
    this.addSql(`create table "merchant_plans" ("id" uuid not null, "merchant_id" uuid not null, "plan_id" text not null, "is_enabled" boolean not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "merchant_plans" add constraint "merchant_plans_merchant_id_plan_id_unique" unique ("merchant_id", "plan_id");`);
    this.addSql(`create table "widget_sessions" ("id" uuid not null, "token" varchar(64) not null, "merchant_id" uuid not null, "livemode" boolean not null, "status" text not null, "amount_cents" int not null, "currency" varchar(3) not null, "order_reference" varchar(191) not null, "customer_email" varchar(254) null, "customer_phone" varchar(16) null, "purchase_description" varchar(500) null, "success_url" varchar(2048) not null, "cancel_url" varchar(2048) not null, "expires_at" timestamptz not null, "authorized_at" timestamptz null, "cancelled_at" timestamptz null, "idempotency_key" varchar(255) null, "idempotency_fingerprint" varchar(64) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "widget_sessions" add constraint "widget_sessions_token_unique" unique ("token");`);
    this.addSql(`alter table "widget_sessions" add constraint "widget_sessions_merchant_id_idempotency_key_unique" unique ("merchant_id", "idempotency_key");`);
    this.addSql(`create table "loans" ("id" uuid not null, "loan_number" varchar(14) not null, "merchant_id" uuid not null, "session_id" uuid not null, "livemode" boolean not null, "status" text not null, "plan_id" text not null, "principal_cents" int not null, "fee_cents" int not null, "total_cents" int not null, "currency" varchar(3) not null, "purchase_reference" varchar(191) not null, "customer_email" varchar(254) not null, "customer_phone" varchar(16) null, "disbursed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "loans" add constraint "loans_loan_number_unique" unique ("loan_number");`);
    this.addSql(`alter table "loans" add constraint "loans_session_id_unique" unique ("session_id");`);
    this.addSql(`create index "loans_merchant_id_created_at_index" on "loans" ("merchant_id", "created_at");`);
    this.addSql(`create table "installments" ("id" uuid not null, "loan_id" uuid not null, "installment_number" int not null, "amount_cents" int not null, "due_date" date not null, "paid_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "installments" add constraint "installments_loan_id_installment_number_unique" unique ("loan_id", "installment_number");`);
    this.addSql(`alter table "merchant_plans" add constraint "merchant_plans_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "merchant_plans" add constraint "merchant_plans_plan_id_check" check ("plan_id" in ('pay_in_4', 'monthly_3', 'monthly_6', 'monthly_12'));`);
    this.addSql(`alter table "widget_sessions" add constraint "widget_sessions_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "widget_sessions" add constraint "widget_sessions_status_check" check ("status" in ('initialized', 'eligible', 'ineligible', 'authorized', 'cancelled', 'expired'));`);
    this.addSql(`alter table "loans" add constraint "loans_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "loans" add constraint "loans_session_id_foreign" foreign key ("session_id") references "widget_sessions" ("id") on delete cascade;`);
    this.addSql(`alter table "loans" add constraint "loans_status_check" check ("status" in ('pending', 'approved', 'funded', 'active', 'paid_off', 'in_arrears', 'defaulted', 'written_off', 'cancelled'));`);
    this.addSql(`alter table "loans" add constraint "loans_plan_id_check" check ("plan_id" in ('pay_in_4', 'monthly_3', 'monthly_6', 'monthly_12'));`);
    this.addSql(`alter table "installments" add constraint "installments_loan_id_foreign" foreign key ("loan_id") references "loans" ("id") on delete cascade;`);
  }

  override down(): void {
    for (const table of ['installments', 'loans', 'widget_sessions', 'merchant_plans']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
