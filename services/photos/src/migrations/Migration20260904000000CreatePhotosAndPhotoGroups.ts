import { Migration } from '@mikro-orm/migrations';

/**
 * Photos and videos (idempotent per team on local_capture_id; rendition columns filled by the media workflow) and
 * before/after photo groups.
 */
export class Migration20260904000000CreatePhotosAndPhotoGroups extends Migration {
  override up(): void {
    this.addSql(`create table "photos" ("id" serial primary key, "team_id" int not null, "project_id" int null, "local_capture_id" varchar(191) not null, "captured_at" timestamptz null, "uploaded_at" timestamptz not null, "media_type" text not null, "mime_type" varchar(100) not null, "description" text not null default '', "tags" text[] not null default '{}', "latitude" double precision null, "longitude" double precision null, "accuracy_m" double precision null, "assignment_source" text not null, "distance_m" double precision null, "unassigned_reason" text null, "size_bytes" bigint not null, "original_key" varchar(300) not null, "thumb_key" varchar(300) null, "poster_key" varchar(300) null, "duration_seconds" double precision null, "width" int null, "height" int null, "media_processed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "photos_team_id_captured_at_index" on "photos" ("team_id", "captured_at");`);
    this.addSql(`create index "photos_project_id_media_type_index" on "photos" ("project_id", "media_type");`);
    this.addSql(`alter table "photos" add constraint "photos_team_id_local_capture_id_unique" unique ("team_id", "local_capture_id");`);
    this.addSql(`create table "photo_groups" ("id" serial primary key, "team_id" int not null, "before_id" int not null, "after_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "photo_groups_team_id_created_at_index" on "photo_groups" ("team_id", "created_at");`);
    this.addSql(`create index "photo_groups_after_id_index" on "photo_groups" ("after_id");`);
    this.addSql(`alter table "photo_groups" add constraint "photo_groups_before_id_after_id_unique" unique ("before_id", "after_id");`);
    this.addSql(`alter table "photos" add constraint "photos_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "photos" add constraint "photos_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete set null;`);
    this.addSql(`alter table "photos" add constraint "photos_media_type_check" check ("media_type" in ('photo', 'video'));`);
    this.addSql(`alter table "photos" add constraint "photos_assignment_source_check" check ("assignment_source" in ('gps', 'manual', 'corrected', 'unassigned'));`);
    this.addSql(`alter table "photos" add constraint "photos_unassigned_reason_check" check ("unassigned_reason" in ('ambiguous', 'low_accuracy', 'outside_radius', 'no_fix'));`);
    this.addSql(`alter table "photo_groups" add constraint "photo_groups_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "photo_groups" add constraint "photo_groups_before_id_foreign" foreign key ("before_id") references "photos" ("id") on delete cascade;`);
    this.addSql(`alter table "photo_groups" add constraint "photo_groups_after_id_foreign" foreign key ("after_id") references "photos" ("id") on delete cascade;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "photo_groups" cascade;`);
    this.addSql(`drop table if exists "photos" cascade;`);
  }
}
