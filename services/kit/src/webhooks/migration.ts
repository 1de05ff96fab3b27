import { randomUUID } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import { TASK_QUEUES, WEBHOOK_SCHEDULES, WORKFLOW_TYPES, type ServiceName, type WebhookSchedule } from '@tributary/workflows';
import { webhookWorkflowMetadata } from './delivery-queue.js';

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

/** Entry of `kitMigrations`; the name sorts before service migrations created later. */
export const webhookDeliveryMigration: MigrationObject = {
  name: 'Migration20250101000000_CreateWebhookDeliveryTables',
  class: CreateWebhookDeliveryTables,
};

interface UnstartedDeliveryRow {
  id: string;
  service: string;
  event_id: string;
  event_name: string;
  endpoint_url: string;
  delivery_number: number;
  workflow_id: string;
  created_at: Date;
}

/**
 * Webhook delivery workflows are started through the workflow outbox (one mechanism for every workflow start) instead of
 * the deliveries' own `workflow_started_at` column: deliveries committed but never started get an outbox start, so the
 * outbox sweeper starts them, and the column with its sweeper index goes. Deliveries also get an owner column.
 * Runs after CreateWorkflowOutbox.
 */
export class StartWebhookDeliveriesThroughOutbox extends Migration {
  override async up(): Promise<void> {
    const unstarted = (await this.execute(
      `select "id", "service", "event_id", "event_name", "endpoint_url", "delivery_number", "workflow_id", "created_at"
       from "webhook_deliveries" where "workflow_started_at" is null order by "created_at"`,
    )) as unknown as UnstartedDeliveryRow[];
    for (const row of unstarted) {
      const service = row.service as ServiceName;
      const schedule = (WEBHOOK_SCHEDULES as Partial<Record<ServiceName, WebhookSchedule>>)[service];
      if (!schedule || !(service in TASK_QUEUES)) continue;
      const { summary, details } = webhookWorkflowMetadata({
        id: row.id,
        service,
        eventName: row.event_name,
        eventId: row.event_id,
        endpointUrl: row.endpoint_url,
        deliveryNumber: Number(row.delivery_number),
      });
      await this.execute(
        `insert into "workflow_outbox" ("id", "kind", "workflow_id", "workflow_type", "task_queue", "args", "summary", "details", "created_at")
         values (?, 'start', ?, ?, ?, ?::jsonb, ?, ?, ?) on conflict do nothing`,
        [randomUUID(), row.workflow_id, WORKFLOW_TYPES.webhookDelivery, TASK_QUEUES[service], JSON.stringify([{ service, deliveryId: row.id, schedule }]), summary, details, row.created_at],
      );
    }
    this.addSql('drop index if exists "webhook_deliveries_unstarted_idx";');
    this.addSql('alter table "webhook_deliveries" drop column if exists "workflow_started_at";');
    this.addSql('alter table "webhook_deliveries" add column if not exists "owner_id" varchar(64) null;');
    this.addSql('create index if not exists "webhook_deliveries_owner_idx" on "webhook_deliveries" ("owner_id", "created_at");');
  }

  override down(): void {
    this.addSql('drop index if exists "webhook_deliveries_owner_idx";');
    this.addSql('alter table "webhook_deliveries" drop column if exists "owner_id";');
    this.addSql('alter table "webhook_deliveries" add column if not exists "workflow_started_at" timestamptz null;');
    this.addSql(`update "webhook_deliveries" set "workflow_started_at" = "created_at";`);
    this.addSql(`create index if not exists "webhook_deliveries_unstarted_idx" on "webhook_deliveries" ("created_at") where "workflow_started_at" is null;`);
  }
}

export const webhookDeliveryOutboxMigration: MigrationObject = {
  name: 'Migration20250101000200_StartWebhookDeliveriesThroughOutbox',
  class: StartWebhookDeliveriesThroughOutbox,
};

/** Deliveries name their signature scheme (WEBHOOK_SIGNATURE_SCHEMES); every existing one is `hmac-sha256-hex`. */
export class AddWebhookSignatureScheme extends Migration {
  override up(): void {
    this.addSql(`alter table "webhook_deliveries" add column if not exists "signature_scheme" text not null default 'hmac-sha256-hex';`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_signature_scheme_check" check ("signature_scheme" in ('hmac-sha256-hex', 'standard-webhooks'));`);
  }

  override down(): void {
    this.addSql('alter table "webhook_deliveries" drop column if exists "signature_scheme";');
  }
}

export const webhookSignatureSchemeMigration: MigrationObject = {
  name: 'Migration20250101000300_AddWebhookSignatureScheme',
  class: AddWebhookSignatureScheme,
};
