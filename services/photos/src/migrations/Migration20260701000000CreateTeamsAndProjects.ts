import { Migration } from '@mikro-orm/migrations';

/** Teams, users and memberships, access tokens (SHA-256 only) and projects with optional coordinates. */
export class Migration20260701000000CreateTeamsAndProjects extends Migration {
  override up(): void {
    this.addSql(`create table "teams" ("id" serial primary key, "name" varchar(191) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create table "projects" ("id" serial primary key, "team_id" int not null, "name" varchar(191) not null, "status" text not null default 'active', "address" varchar(500) null, "latitude" double precision null, "longitude" double precision null, "radius_m" double precision not null default 150, "created_at" timestamptz not null, "updated_at" timestamptz not null, "last_activity_at" timestamptz not null);`);
    this.addSql(`create index "projects_team_id_status_last_activity_at_index" on "projects" ("team_id", "status", "last_activity_at");`);
    this.addSql(`alter table "projects" add constraint "projects_status_check" check ("status" in ('active', 'archived'));`);
    this.addSql(`create table "users" ("id" serial primary key, "name" varchar(191) not null, "email" varchar(254) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create table "team_memberships" ("id" serial primary key, "team_id" int not null, "user_id" int not null, "role" text not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_team_id_user_id_unique" unique ("team_id", "user_id");`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_role_check" check ("role" in ('owner', 'admin', 'member'));`);
    this.addSql(`create table "access_tokens" ("id" serial primary key, "user_id" int not null, "team_id" int not null, "token_hash" varchar(64) not null, "name" varchar(191) not null, "abilities" text[] null, "created_at" timestamptz not null, "expires_at" timestamptz null, "revoked_at" timestamptz null);`);
    this.addSql(`alter table "access_tokens" add constraint "access_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "projects" add constraint "projects_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "access_tokens" add constraint "access_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "access_tokens" add constraint "access_tokens_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
  }

  override down(): void {
    for (const table of ['access_tokens', 'team_memberships', 'projects', 'users', 'teams']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
