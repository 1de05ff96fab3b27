import { Migration } from '@mikro-orm/migrations';

/**
 * The loan lifecycle: each loan's payment method and arrears/default times; each installment's collection status and
 * debit attempts; each merchant's test clock. Loans booked before it get the default test payment method (pm_card_on_file when live). The
 * column default serves loans created without checkout (fixtures); checkout always sets it.
 */
export class Migration20261125000000LoanLifecycle extends Migration {
  override up(): void {
    this.addSql(`alter table "loans" add "payment_method" varchar(40) not null default 'pm_test_success', add "arrears_since" timestamptz null, add "defaulted_at" timestamptz null;`);
    this.addSql(`update "loans" set "payment_method" = 'pm_card_on_file' where "livemode";`);
    this.addSql(
      `alter table "installments" add "status" text not null default 'pending', add "attempt_count" int not null default 0, add "last_attempt_at" timestamptz null, add "last_decline_code" varchar(64) null;`,
    );
    this.addSql(`update "installments" set "status" = 'paid' where "paid_at" is not null;`);
    this.addSql(`alter table "installments" add constraint "installments_status_check" check ("status" in ('pending', 'paid', 'missed'));`);
    this.addSql(`create table "test_clocks" ("id" uuid not null, "merchant_id" uuid not null, "offset_seconds" int not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "test_clocks" add constraint "test_clocks_merchant_id_unique" unique ("merchant_id");`);
    this.addSql(`alter table "test_clocks" add constraint "test_clocks_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "test_clocks" cascade;`);
    this.addSql(`alter table "installments" drop constraint if exists "installments_status_check";`);
    this.addSql(`alter table "installments" drop column if exists "status", drop column if exists "attempt_count", drop column if exists "last_attempt_at", drop column if exists "last_decline_code";`);
    this.addSql(`alter table "loans" drop column if exists "payment_method", drop column if exists "arrears_since", drop column if exists "defaulted_at";`);
  }
}
