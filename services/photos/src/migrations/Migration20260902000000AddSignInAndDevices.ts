import { Migration } from '@mikro-orm/migrations';

/** Sign-in passwords (bcrypt), capture devices (one per team, user and device_id) and device tokens' device. */
export class Migration20260902000000AddSignInAndDevices extends Migration {
  override up(): void {
    this.addSql(`alter table "users" add column "password_hash" varchar(60) null;`);
    this.addSql(`create table "devices" ("id" serial primary key, "team_id" int not null, "user_id" int not null, "device_id" varchar(191) not null, "name" varchar(191) null, "platform" varchar(32) null, "os_version" varchar(64) null, "app_version" varchar(64) null, "queue_depth" int null, "last_seen_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "devices" add constraint "devices_team_id_user_id_device_id_unique" unique ("team_id", "user_id", "device_id");`);
    this.addSql(`alter table "devices" add constraint "devices_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "devices" add constraint "devices_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "access_tokens" add column "device_id" int null;`);
    this.addSql(`alter table "access_tokens" add constraint "access_tokens_device_id_foreign" foreign key ("device_id") references "devices" ("id") on delete cascade;`);
    this.addSql(`create index "access_tokens_device_id_index" on "access_tokens" ("device_id");`);
  }

  override down(): void {
    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_device_id_foreign";`);
    this.addSql(`alter table "access_tokens" drop column "device_id";`);
    this.addSql(`drop table if exists "devices" cascade;`);
    this.addSql(`alter table "users" drop column "password_hash";`);
  }
}
