import { Migration } from '@mikro-orm/migrations';

/** Settlement batches, operator adjustments and the lines tying each sale, refund and adjustment to one batch. */
export class Migration20261125100000CreateSettlements extends Migration {
  override up(): void {
    this.addSql(
      `create table "settlements" ("id" uuid not null, "merchant_id" uuid not null, "livemode" boolean not null, "batch" varchar(64) not null, "cadence" text not null, "period_start" date not null, "period_end" date not null, "currency" varchar(3) not null, "mdr_bps" int not null, "gross_cents" bigint not null, "mdr_cents" bigint not null, "refunds_cents" bigint not null, "adjustments_cents" bigint not null, "net_cents" bigint not null, "status" text not null, "paid_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "settlements_merchant_id_created_at_index" on "settlements" ("merchant_id", "created_at");`);
    this.addSql(`alter table "settlements" add constraint "settlements_merchant_id_batch_unique" unique ("merchant_id", "batch");`);
    this.addSql(`alter table "settlements" add constraint "settlements_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "settlements" add constraint "settlements_cadence_check" check ("cadence" in ('daily', 'weekly', 'monthly'));`);
    this.addSql(`alter table "settlements" add constraint "settlements_status_check" check ("status" in ('pending', 'paid'));`);

    this.addSql(
      `create table "settlement_adjustments" ("id" uuid not null, "merchant_id" uuid not null, "livemode" boolean not null, "currency" varchar(3) not null, "amount_cents" int not null, "reason" varchar(500) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "settlement_adjustments_merchant_id_created_at_index" on "settlement_adjustments" ("merchant_id", "created_at");`);
    this.addSql(`alter table "settlement_adjustments" add constraint "settlement_adjustments_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);

    this.addSql(
      `create table "settlement_lines" ("id" uuid not null, "settlement_id" uuid not null, "kind" text not null, "loan_id" uuid null, "refund_id" uuid null, "adjustment_id" uuid null, "amount_cents" int not null, "mdr_cents" int not null default 0, primary key ("id"));`,
    );
    this.addSql(`create index "settlement_lines_settlement_id_index" on "settlement_lines" ("settlement_id");`);
    this.addSql(`create unique index "settlement_lines_loan_unique" on "settlement_lines" ("loan_id") where "kind" = 'sale';`);
    this.addSql(`create unique index "settlement_lines_refund_unique" on "settlement_lines" ("refund_id") where "refund_id" is not null;`);
    this.addSql(`create unique index "settlement_lines_adjustment_unique" on "settlement_lines" ("adjustment_id") where "adjustment_id" is not null;`);
    this.addSql(`alter table "settlement_lines" add constraint "settlement_lines_settlement_id_foreign" foreign key ("settlement_id") references "settlements" ("id") on delete cascade;`);
    this.addSql(`alter table "settlement_lines" add constraint "settlement_lines_loan_id_foreign" foreign key ("loan_id") references "loans" ("id") on delete cascade;`);
    this.addSql(`alter table "settlement_lines" add constraint "settlement_lines_refund_id_foreign" foreign key ("refund_id") references "refunds" ("id") on delete cascade;`);
    this.addSql(`alter table "settlement_lines" add constraint "settlement_lines_adjustment_id_foreign" foreign key ("adjustment_id") references "settlement_adjustments" ("id") on delete cascade;`);
    this.addSql(`alter table "settlement_lines" add constraint "settlement_lines_kind_check" check ("kind" in ('sale', 'refund', 'adjustment'));`);
  }

  override down(): void {
    this.addSql('drop table if exists "settlement_lines" cascade;');
    this.addSql('drop table if exists "settlement_adjustments" cascade;');
    this.addSql('drop table if exists "settlements" cascade;');
  }
}
