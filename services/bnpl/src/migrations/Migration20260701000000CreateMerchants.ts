import { Migration } from '@mikro-orm/migrations';

/** Merchants, their dashboard users and tokens (SHA-256 only), and API keys (bcrypt hash of the secret only). */
export class Migration20260701000000CreateMerchants extends Migration {
  override up(): void {
    this.addSql(`create table "merchants" ("id" uuid not null, "name" varchar(191) not null, "settlement_cadence" text not null default 'weekly', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "merchants" add constraint "merchants_settlement_cadence_check" check ("settlement_cadence" in ('daily', 'weekly', 'monthly'));`);
    this.addSql(`create table "api_keys" ("id" uuid not null, "merchant_id" uuid not null, "name" varchar(191) not null, "environment" text not null, "public_key" varchar(64) not null, "secret_key_hash" varchar(60) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_public_key_unique" unique ("public_key");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_environment_check" check ("environment" in ('test', 'live'));`);
    this.addSql(`create table "merchant_users" ("id" uuid not null, "merchant_id" uuid not null, "email" varchar(254) not null, "name" varchar(191) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "merchant_users" add constraint "merchant_users_email_unique" unique ("email");`);
    this.addSql(`create table "dashboard_tokens" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "dashboard_tokens" add constraint "dashboard_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "merchant_users" add constraint "merchant_users_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "dashboard_tokens" add constraint "dashboard_tokens_user_id_foreign" foreign key ("user_id") references "merchant_users" ("id") on delete cascade;`);
  }

  override down(): void {
    for (const table of ['dashboard_tokens', 'merchant_users', 'api_keys', 'merchants']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
