import { Migration } from '@mikro-orm/migrations';

/** Comments on photos and projects, their resolved @mentions, and the mentioned users' notifications. */
export class Migration20261004000000CreateCommentsAndNotifications extends Migration {
  override up(): void {
    this.addSql(`create table "comments" ("id" serial primary key, "team_id" int not null, "photo_id" int null, "project_id" int null, "author_id" int null, "body" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "comments_photo_id_id_index" on "comments" ("photo_id", "id");`);
    this.addSql(`create index "comments_project_id_id_index" on "comments" ("project_id", "id");`);
    this.addSql(`create index "comments_team_id_index" on "comments" ("team_id");`);
    this.addSql(`alter table "comments" add constraint "comments_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_photo_id_foreign" foreign key ("photo_id") references "photos" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_author_id_foreign" foreign key ("author_id") references "users" ("id") on delete set null;`);
    // A comment belongs to exactly one thread: a photo's or a project's own.
    this.addSql(`alter table "comments" add constraint "comments_one_target_check" check (num_nonnulls(photo_id, project_id) = 1);`);

    this.addSql(`create table "comment_mentions" ("id" serial primary key, "comment_id" int not null, "user_id" int not null, "span_start" int not null, "span_end" int not null);`);
    this.addSql(`create index "comment_mentions_comment_id_index" on "comment_mentions" ("comment_id");`);
    this.addSql(`create index "comment_mentions_user_id_index" on "comment_mentions" ("user_id");`);
    this.addSql(`alter table "comment_mentions" add constraint "comment_mentions_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on delete cascade;`);
    this.addSql(`alter table "comment_mentions" add constraint "comment_mentions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "notifications" ("id" serial primary key, "team_id" int not null, "user_id" int not null, "kind" text not null, "comment_id" int not null, "read_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "notifications_user_id_team_id_id_index" on "notifications" ("user_id", "team_id", "id");`);
    this.addSql(`alter table "notifications" add constraint "notifications_user_id_comment_id_kind_unique" unique ("user_id", "comment_id", "kind");`);
    this.addSql(`alter table "notifications" add constraint "notifications_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "notifications" add constraint "notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "notifications" add constraint "notifications_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on delete cascade;`);
    this.addSql(`alter table "notifications" add constraint "notifications_kind_check" check ("kind" in ('mention'));`);
  }

  override down(): void {
    this.addSql(`drop table if exists "notifications" cascade;`);
    this.addSql(`drop table if exists "comment_mentions" cascade;`);
    this.addSql(`drop table if exists "comments" cascade;`);
  }
}
