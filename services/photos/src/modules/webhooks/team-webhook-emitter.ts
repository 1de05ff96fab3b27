// Team events become webhook deliveries (outbox style): inside the transaction that changed the record, one delivery per
// ACTIVE endpoint of the team subscribed to the event, each with the start of its delivery workflow in the workflow
// outbox; the returned after-commit work dispatches them. Nothing is sent inline: the kit's delivery workflow on the
// photos worker sends and retries on photos' schedule (WEBHOOK_SCHEDULES.photos) with Standard Webhooks signatures.
// If the process dies between commit and dispatch, the worker's outbox sweeper dispatches them.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookDelivery, webhookEndpointSecretRef, type AfterCommit, type OutboxEntryRef, type WorkflowOutbox } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { WebhookEndpoint, type PhotosWebhookEvent } from '../webhook-endpoints/index.js';

/** The body of every photos webhook: Standard Webhooks' recommended `{type, timestamp, data}` plus the event id. */
export interface PhotosWebhookEnvelope<D extends object = object> {
  /** `evt_` + 32 hex characters; also the `webhook-id` header, the same on every retry and re-send. */
  id: string;
  type: PhotosWebhookEvent;
  /** ISO 8601 UTC, when the event happened (queued); retries repeat it. */
  timestamp: string;
  /** The REST resource of the event's kind, byte for byte. */
  data: D;
}

export interface TeamWebhookEmitterOptions {
  /** Dispatches the deliveries after the commit. Without one the worker's outbox sweeper does. */
  outbox?: WorkflowOutbox | undefined;
  now?: () => Date;
}

export interface TeamWebhookEmitter {
  /**
   * Queues `event` with `data` (the REST resource) for every active endpoint of the team subscribed to it, in `tx`;
   * returns the after-commit dispatch (undefined when no endpoint wants it).
   */
  emit(tx: EntityManager, teamId: number, event: PhotosWebhookEvent, data: object): Promise<AfterCommit | undefined>;
}

export function newWebhookEventId(): string {
  return `evt_${randomUUID().replace(/-/g, '')}`;
}

export function createTeamWebhookEmitter(options: TeamWebhookEmitterOptions = {}): TeamWebhookEmitter {
  const now = options.now ?? (() => new Date());
  return {
    async emit(tx, teamId, event, data) {
      const endpoints = await tx.getRepository(WebhookEndpoint).subscribers(teamId, event);
      if (endpoints.length === 0) return undefined;
      const envelope: PhotosWebhookEnvelope = { id: newWebhookEventId(), type: event, timestamp: now().toISOString(), data };
      const body = JSON.stringify(envelope);
      const queued: OutboxEntryRef[] = [];
      for (const endpoint of endpoints) {
        const { outboxEntry } = await enqueueWebhookDelivery(tx, {
          service: SERVICE_NAME,
          eventId: envelope.id,
          eventName: event,
          endpointUrl: endpoint.url,
          endpointId: endpoint.id,
          ownerId: String(teamId),
          body,
          signingSecretRef: webhookEndpointSecretRef(endpoint.id),
        });
        queued.push(outboxEntry);
      }
      return options.outbox?.dispatchAfterCommit(queued);
    },
  };
}
