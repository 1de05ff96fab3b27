// The tables the kit owns in every service's database: webhook deliveries (and their attempts) and the workflow
// outbox. A service lists these entities and migrations before its own:
//   entities: [...kitEntities, ...serviceEntities], migrations: [...kitMigrations, ...serviceMigrations]
import type { MigrationObject } from '@mikro-orm/core';
import { WorkflowOutboxEntry, workflowOutboxMigration } from '../outbox/index.js';
import { WebhookDelivery, WebhookDeliveryAttempt, webhookDeliveryMigration, webhookDeliveryOutboxMigration, webhookSignatureSchemeMigration } from '../webhooks/index.js';

export const kitEntities = [WebhookDelivery, WebhookDeliveryAttempt, WorkflowOutboxEntry];

/** In this order (the names sort the same way, before any service migration). */
export const kitMigrations: MigrationObject[] = [webhookDeliveryMigration, workflowOutboxMigration, webhookDeliveryOutboxMigration, webhookSignatureSchemeMigration];
