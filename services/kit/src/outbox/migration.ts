import { Migration } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';

/** Creates the workflow outbox table (workflow-outbox.entity.ts). Part of `kitMigrations`. */
export class CreateWorkflowOutbox extends Migration {
  override up(): void {
    this.addSql(`
      create table if not exists "workflow_outbox" (
        "id" uuid primary key,
        "kind" text not null check ("kind" in ('start', 'signal')),
        "workflow_id" varchar(512) not null,
        "workflow_type" varchar(128) null,
        "task_queue" varchar(128) null,
        "signal_name" varchar(128) null,
        "args" jsonb not null,
        "summary" text null,
        "details" text null,
        "attempts" integer not null default 0,
        "last_error" text null,
        "created_at" timestamptz not null,
        "dispatched_at" timestamptz null,
        constraint "workflow_outbox_command_check" check (("kind" = 'start' and "workflow_type" is not null and "task_queue" is not null) or ("kind" = 'signal' and "signal_name" is not null))
      );`);
    this.addSql(`create unique index if not exists "workflow_outbox_start_unique" on "workflow_outbox" ("workflow_id") where "kind" = 'start';`);
    this.addSql(`create index if not exists "workflow_outbox_pending_idx" on "workflow_outbox" ("created_at") where "dispatched_at" is null;`);
  }

  override down(): void {
    this.addSql('drop table if exists "workflow_outbox";');
  }
}

export const workflowOutboxMigration: MigrationObject = {
  name: 'Migration20250101000100_CreateWorkflowOutbox',
  class: CreateWorkflowOutbox,
};
