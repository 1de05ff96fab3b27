import { Migration } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';

/**
 * Creates the webhook delivery tables. Every service that sends webhooks lists this in its own migrations
 * (each service owns its tables in its own database):
 *
 * ```ts
 * migrations: [webhookDeliveryMigration, ...serviceMigrations]
 * ```
 */
export class CreateWebhookDeliveryTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table if not exists "webhook_deliveries" (
        "id" uuid primary key,
        "service" varchar(32) not null,
        "event_id" varchar(255) not null,
        "event_name" varchar(255) not null,
        "delivery_number" integer not null check ("delivery_number" >= 1),
        "redelivery_of" uuid null references "webhook_deliveries" ("id") on delete set null,
        "endpoint_id" varchar(255) null,
        "endpoint_url" text not null,
        "body" text not null,
        "event_header" varchar(255) not null,
        "signature_header" varchar(255) not null,
        "signing_secret_ref" varchar(255) not null,
        "status" text not null default 'queued' check ("status" in ('queued', 'delivering', 'delivered', 'failed')),
        "workflow_id" varchar(512) not null,
        "attempt_count" integer not null default 0,
        "last_status_code" integer null,
        "last_error" text null,
        "last_attempt_at" timestamptz null,
        "next_attempt_at" timestamptz null,
        "workflow_started_at" timestamptz null,
        "completed_at" timestamptz null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null,
        constraint "webhook_deliveries_event_delivery_number_unique" unique ("event_id", "delivery_number"),
        constraint "webhook_deliveries_workflow_id_unique" unique ("workflow_id")
      );`);
    this.addSql(`create index if not exists "webhook_deliveries_unstarted_idx" on "webhook_deliveries" ("created_at") where "workflow_started_at" is null;`);
    this.addSql(`create index if not exists "webhook_deliveries_endpoint_idx" on "webhook_deliveries" ("endpoint_id", "created_at");`);
    this.addSql(`
      create table if not exists "webhook_delivery_attempts" (
        "id" uuid primary key,
        "delivery_id" uuid not null references "webhook_deliveries" ("id") on delete cascade,
        "attempt_number" integer not null check ("attempt_number" >= 1),
        "outcome" text not null check ("outcome" in ('delivered', 'failed')),
        "attempted_at" timestamptz not null,
        "status_code" integer null,
        "error" text null,
        "error_kind" varchar(32) null,
        "duration_ms" integer not null,
        "remote_address" varchar(64) null,
        constraint "webhook_delivery_attempts_delivery_attempt_unique" unique ("delivery_id", "attempt_number")
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "webhook_delivery_attempts";');
    this.addSql('drop table if exists "webhook_deliveries";');
  }
}

/** Entry for a service's `migrations` list; the name sorts before service migrations created later. */
export const webhookDeliveryMigration: MigrationObject = {
  name: 'Migration20250101000000_CreateWebhookDeliveryTables',
  class: CreateWebhookDeliveryTables,
};
