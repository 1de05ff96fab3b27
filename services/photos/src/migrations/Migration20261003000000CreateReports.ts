import { Migration } from '@mikro-orm/migrations';

/** Reports (PDF of a project's photos, status, share link hash) and their photos in order with the originals' SHA-256. */
export class Migration20261003000000CreateReports extends Migration {
  override up(): void {
    this.addSql(`create table "reports" ("id" serial primary key, "team_id" int not null, "project_id" int not null, "created_by_id" int null, "title" varchar(191) not null, "notes" text not null default '', "photo_count" int not null, "status" text not null default 'queued', "failure_reason" text null, "failure_message" text null, "pdf_key" varchar(300) null, "pdf_sha256" varchar(64) null, "pdf_size_bytes" bigint null, "page_count" int null, "rendered_at" timestamptz null, "share_token_hash" varchar(64) null, "shared_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "reports_team_id_created_at_index" on "reports" ("team_id", "created_at");`);
    this.addSql(`create index "reports_project_id_created_at_index" on "reports" ("project_id", "created_at");`);
    this.addSql(`alter table "reports" add constraint "reports_share_token_hash_unique" unique ("share_token_hash");`);
    this.addSql(`alter table "reports" add constraint "reports_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "reports" add constraint "reports_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "reports" add constraint "reports_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "reports" add constraint "reports_status_check" check ("status" in ('queued', 'rendering', 'ready', 'failed'));`);
    this.addSql(`alter table "reports" add constraint "reports_failure_reason_check" check ("failure_reason" in ('unrenderable_media', 'gave_up'));`);

    this.addSql(`create table "report_photos" ("id" serial primary key, "report_id" int not null, "photo_id" int not null, "position" int not null, "sha256" varchar(64) null);`);
    this.addSql(`create index "report_photos_photo_id_index" on "report_photos" ("photo_id");`);
    this.addSql(`alter table "report_photos" add constraint "report_photos_report_id_position_unique" unique ("report_id", "position");`);
    this.addSql(`alter table "report_photos" add constraint "report_photos_report_id_photo_id_unique" unique ("report_id", "photo_id");`);
    this.addSql(`alter table "report_photos" add constraint "report_photos_report_id_foreign" foreign key ("report_id") references "reports" ("id") on delete cascade;`);
    this.addSql(`alter table "report_photos" add constraint "report_photos_photo_id_foreign" foreign key ("photo_id") references "photos" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "report_photos" cascade;`);
    this.addSql(`drop table if exists "reports" cascade;`);
  }
}
