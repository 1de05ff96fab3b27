import { Migration } from '@mikro-orm/migrations';

/** Merchant accounts and their API keys (SHA-256 of the secret only). */
export class Migration20260701000000CreateAccounts extends Migration {
  override up(): void {
    this.addSql(`create table "accounts" ("id" serial primary key, "name" varchar(191) not null, "status" text not null default 'active', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "accounts" add constraint "accounts_status_check" check ("status" in ('active', 'suspended'));`);
    this.addSql(`create table "api_keys" ("id" serial primary key, "account_id" int not null, "key_id" varchar(64) not null, "secret_hash" varchar(64) not null, "name" varchar(191) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null);`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_id_unique" unique ("key_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql('drop table if exists "api_keys" cascade;');
    this.addSql('drop table if exists "accounts" cascade;');
  }
}
