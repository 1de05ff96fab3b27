import { Migration } from '@mikro-orm/migrations';

/**
 * Per-account receive keys: one account-level extended PUBLIC key per (account, asset) and the cursor
 * `next_index` (first receive index not yet handed out). Asset codes are written out, not imported, so this
 * migration never changes after it shipped.
 */
export class Migration20260701000200CreateAccountXpubs extends Migration {
  override up(): void {
    this.addSql(`create table "account_xpubs" ("account_id" int not null, "asset" text not null, "xpub" varchar(120) not null, "next_index" bigint not null default '0', "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "account_xpubs_pkey" primary key ("account_id", "asset"));`);
    this.addSql(`alter table "account_xpubs" add constraint "account_xpubs_asset_check" check ("asset" in ('BTC', 'ETH', 'LTC', 'MATIC'));`);
    this.addSql(`alter table "account_xpubs" add constraint "account_xpubs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql('drop table if exists "account_xpubs" cascade;');
  }
}
