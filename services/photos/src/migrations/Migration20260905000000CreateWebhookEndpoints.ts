import { Migration } from '@mikro-orm/migrations';

/** Teams' webhook endpoints, their Standard Webhooks secrets sealed. */
export class Migration20260905000000CreateWebhookEndpoints extends Migration {
  override up(): void {
    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "team_id" int not null, "url" varchar(2048) not null, "events" text[] not null, "is_active" boolean not null, "secret_sealed" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_team_id_created_at_index" on "webhook_endpoints" ("team_id", "created_at");`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }
}
