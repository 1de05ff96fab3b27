import { Migration } from '@mikro-orm/migrations';

/**
 * Checklists with items and photo evidence, tasks (issue 11), and the device that uploaded each photo (a device token
 * may attach only photos it uploaded as evidence; photos uploaded before this migration have none).
 */
export class Migration20261001000000CreateChecklistsAndTasks extends Migration {
  override up(): void {
    this.addSql(`create table "tasks" ("id" serial primary key, "team_id" int not null, "project_id" int not null, "photo_id" int null, "title" varchar(191) not null, "description" text not null default '', "assignee_id" int null, "due_at" timestamptz null, "created_by_id" int null, "closed_at" timestamptz null, "closed_by_id" int null, "withdrawn_at" timestamptz null, "withdrawn_by_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tasks_team_id_project_id_index" on "tasks" ("team_id", "project_id");`);
    this.addSql(`create index "tasks_team_id_assignee_id_index" on "tasks" ("team_id", "assignee_id");`);
    this.addSql(`create index "tasks_photo_id_index" on "tasks" ("photo_id");`);
    this.addSql(`create table "checklists" ("id" serial primary key, "team_id" int not null, "project_id" int not null, "title" varchar(191) not null, "created_by_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "checklists_team_id_created_at_index" on "checklists" ("team_id", "created_at");`);
    this.addSql(`create index "checklists_project_id_index" on "checklists" ("project_id");`);
    this.addSql(`create table "checklist_items" ("id" serial primary key, "checklist_id" int not null, "position" int not null, "title" varchar(191) not null, "requires_photo" boolean not null default false, "assignee_id" int null, "ticked_at" timestamptz null, "ticked_by_id" int null, "note" text null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "checklist_items_assignee_id_index" on "checklist_items" ("assignee_id");`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_checklist_id_position_unique" unique ("checklist_id", "position");`);
    this.addSql(`create table "checklist_evidence" ("id" serial primary key, "item_id" int not null, "photo_id" int not null, "attached_by_id" int null, "attached_by_device_id" int null, "attached_at" timestamptz not null);`);
    this.addSql(`create index "checklist_evidence_photo_id_index" on "checklist_evidence" ("photo_id");`);
    this.addSql(`alter table "checklist_evidence" add constraint "checklist_evidence_item_id_photo_id_unique" unique ("item_id", "photo_id");`);
    this.addSql(`alter table "photos" add "uploaded_by_device_id" int null;`);
    this.addSql(`alter table "photos" add constraint "photos_uploaded_by_device_id_foreign" foreign key ("uploaded_by_device_id") references "devices" ("id") on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_photo_id_foreign" foreign key ("photo_id") references "photos" ("id") on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_assignee_id_foreign" foreign key ("assignee_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_closed_by_id_foreign" foreign key ("closed_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_withdrawn_by_id_foreign" foreign key ("withdrawn_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "checklists" add constraint "checklists_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "checklists" add constraint "checklists_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "checklists" add constraint "checklists_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_checklist_id_foreign" foreign key ("checklist_id") references "checklists" ("id") on delete cascade;`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_assignee_id_foreign" foreign key ("assignee_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_ticked_by_id_foreign" foreign key ("ticked_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "checklist_evidence" add constraint "checklist_evidence_item_id_foreign" foreign key ("item_id") references "checklist_items" ("id") on delete cascade;`);
    this.addSql(`alter table "checklist_evidence" add constraint "checklist_evidence_photo_id_foreign" foreign key ("photo_id") references "photos" ("id") on delete cascade;`);
    this.addSql(`alter table "checklist_evidence" add constraint "checklist_evidence_attached_by_id_foreign" foreign key ("attached_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "checklist_evidence" add constraint "checklist_evidence_attached_by_device_id_foreign" foreign key ("attached_by_device_id") references "devices" ("id") on delete set null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "checklist_evidence" cascade;`);
    this.addSql(`drop table if exists "checklist_items" cascade;`);
    this.addSql(`drop table if exists "checklists" cascade;`);
    this.addSql(`drop table if exists "tasks" cascade;`);
    this.addSql(`alter table "photos" drop constraint if exists "photos_uploaded_by_device_id_foreign";`);
    this.addSql(`alter table "photos" drop column if exists "uploaded_by_device_id";`);
  }
}
