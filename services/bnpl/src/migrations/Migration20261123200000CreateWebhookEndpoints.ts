import { Migration } from '@mikro-orm/migrations';

/** Merchants' webhook endpoints: URL, subscribed events, active flag and the sealed signing secret. */
export class Migration20261123200000CreateWebhookEndpoints extends Migration {
  override up(): void {
    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "merchant_id" uuid not null, "url" varchar(2048) not null, "events" text[] not null, "is_active" boolean not null, "secret_sealed" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_merchant_id_created_at_index" on "webhook_endpoints" ("merchant_id", "created_at");`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }
}
