import { Migration } from '@mikro-orm/migrations';

/**
 * The dashboard login: users' bcrypt password hashes (null = cannot sign in yet), the e-mailed one-time codes (salted
 * HMAC only, one per user), and each merchant's discount rate in basis points (default 290 = 2.90 %).
 */
export class Migration20261123100000DashboardLogin extends Migration {
  override up(): void {
    this.addSql(`alter table "merchants" add column "mdr_bps" int not null default 290;`);
    this.addSql(`alter table "merchants" add constraint "merchants_mdr_bps_check" check (mdr_bps >= 0 and mdr_bps <= 10000);`);
    this.addSql(`alter table "merchant_users" add column "password_hash" varchar(60) null;`);
    this.addSql(`create table "merchant_login_codes" ("id" uuid not null, "user_id" uuid not null, "code_salt" varchar(32) not null, "code_hash" varchar(64) not null, "failed_attempts" int not null default 0, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"), constraint merchant_login_codes_failed_attempts_check check (failed_attempts >= 0));`);
    this.addSql(`alter table "merchant_login_codes" add constraint "merchant_login_codes_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "merchant_login_codes" add constraint "merchant_login_codes_user_id_foreign" foreign key ("user_id") references "merchant_users" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "merchant_login_codes" cascade;`);
    this.addSql(`alter table "merchant_users" drop column "password_hash";`);
    this.addSql(`alter table "merchants" drop constraint "merchants_mdr_bps_check";`);
    this.addSql(`alter table "merchants" drop column "mdr_bps";`);
  }
}
