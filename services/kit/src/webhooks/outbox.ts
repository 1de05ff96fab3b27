import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { webhookDeliveryWorkflowId } from '@tributary/workflows';
import type { ServiceName } from '@tributary/workflows';
import { WebhookDelivery } from './entities.js';
import { WEBHOOK_HEADER_NAMES } from './headers.js';
import type { WebhookHeaderNames } from './headers.js';

export interface EnqueueWebhookDeliveryInput {
  service: ServiceName;
  /** The event's stable id (e.g. a generated event id, or payment-request slug + event). */
  eventId: string;
  eventName: string;
  endpointUrl: string;
  /** Service-defined endpoint reference, for listing deliveries per endpoint. */
  endpointId?: string | null;
  /**
   * The exact body. A string is stored as is; anything else is JSON.stringify-ed once, here. Either way the
   * stored text's UTF-8 bytes are sent, unchanged, on every attempt (a retry carries the original timestamp).
   */
  body: string | object;
  /** What `resolveSigningSecret` turns into the secret current at send time. */
  signingSecretRef: string;
  /** Defaults to the service's spec headers (WEBHOOK_HEADER_NAMES). */
  headerNames?: WebhookHeaderNames;
  /** Set by `redeliver`. */
  redeliveryOf?: string | null;
}

function headerNamesFor(service: ServiceName, given: WebhookHeaderNames | undefined): WebhookHeaderNames {
  if (given) return given;
  const known = (WEBHOOK_HEADER_NAMES as Partial<Record<ServiceName, WebhookHeaderNames>>)[service];
  if (!known) throw new Error(`enqueueWebhookDelivery: no default webhook header names for service "${service}"; pass headerNames`);
  return known;
}

/**
 * Inserts a queued delivery in the caller's transaction (opens one when the EntityManager is not in a
 * transaction) and returns it. Nothing is sent until a dispatcher starts its workflow after the commit
 * (`dispatcher.dispatch([delivery.id])`); the sweeper covers a crash in between.
 * The delivery number is the next one for the event (serialized per event with an advisory lock).
 */
export async function enqueueWebhookDelivery(em: EntityManager, input: EnqueueWebhookDeliveryInput): Promise<WebhookDelivery> {
  const run = async (tx: EntityManager): Promise<WebhookDelivery> => {
    const headers = headerNamesFor(input.service, input.headerNames);
    const connection = tx.getConnection();
    await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [`webhook_deliveries:${input.eventId}`], 'run', tx.getTransactionContext());
    const [row] = await connection.execute<Array<{ next: number }>>(
      'select coalesce(max(delivery_number), 0) + 1 as next from webhook_deliveries where event_id = ?',
      [input.eventId],
      'all',
      tx.getTransactionContext(),
    );
    const deliveryNumber = Number(row?.next ?? 1);
    const delivery = tx.create(WebhookDelivery, {
      id: randomUUID(),
      service: input.service,
      eventId: input.eventId,
      eventName: input.eventName,
      deliveryNumber,
      redeliveryOf: input.redeliveryOf ?? null,
      endpointId: input.endpointId ?? null,
      endpointUrl: input.endpointUrl,
      body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
      eventHeader: headers.event,
      signatureHeader: headers.signature,
      signingSecretRef: input.signingSecretRef,
      status: 'queued',
      workflowId: webhookDeliveryWorkflowId(input.service, input.eventId, deliveryNumber),
      attemptCount: 0,
    });
    await tx.flush();
    return delivery;
  };
  return em.isInTransaction() ? run(em) : em.transactional(run);
}

export interface RedeliverOptions {
  /**
   * Body of the new delivery. Default: the original delivery's exact body (same event, same bytes, so the
   * receiver's id+event dedupe sees a repeat). A service that wants a fresh `timestamp` or current status
   * passes a newly rendered body instead.
   */
  body?: string | object;
  /** Default: the original endpoint URL (pass the endpoint's current URL if it may have changed). */
  endpointUrl?: string;
  signingSecretRef?: string;
}

/**
 * Manual re-fire: a NEW delivery of the same event (next delivery number, own workflow, own attempts).
 * Runs in the caller's transaction like `enqueueWebhookDelivery`; dispatch it after the commit.
 */
export async function redeliverWebhook(em: EntityManager, deliveryId: string, options: RedeliverOptions = {}): Promise<WebhookDelivery> {
  const original = await em.findOne(WebhookDelivery, { id: deliveryId });
  if (!original) throw new Error(`redeliver: webhook delivery ${deliveryId} not found`);
  return enqueueWebhookDelivery(em, {
    service: original.service as ServiceName,
    eventId: original.eventId,
    eventName: original.eventName,
    endpointUrl: options.endpointUrl ?? original.endpointUrl,
    endpointId: original.endpointId ?? null,
    body: options.body ?? original.body,
    signingSecretRef: options.signingSecretRef ?? original.signingSecretRef,
    headerNames: { event: original.eventHeader, signature: original.signatureHeader },
    redeliveryOf: original.id,
  });
}
