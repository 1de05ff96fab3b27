// Queueing webhook deliveries: a delivery row plus the start of its delivery workflow in the workflow outbox, both in
// the caller's transaction (nothing is sent until the outbox dispatches the start after the commit), and the manual
// re-send, which is a new delivery of the same event queued the same way.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TASK_QUEUES, WEBHOOK_SCHEDULES, WORKFLOW_TYPES, assertValidWebhookSchedule, webhookDeliveryWorkflowId } from '@tributary/workflows';
import type { ServiceName, WebhookDeliveryWorkflowInput, WebhookSchedule } from '@tributary/workflows';
import { enqueueWorkflowStart, type OutboxEntryRef } from '../outbox/index.js';
import { WebhookDelivery } from './entities.js';
import { DEFAULT_WEBHOOK_SIGNATURE_SCHEME, WEBHOOK_HEADER_NAMES } from './headers.js';
import type { WebhookHeaderNames } from './headers.js';

export interface EnqueueWebhookDeliveryInput {
  service: ServiceName;
  /** The event's stable id (e.g. a generated event id, or payment-request slug + event). */
  eventId: string;
  eventName: string;
  endpointUrl: string;
  /** Service-defined endpoint reference, for listing deliveries per endpoint. */
  endpointId?: string | null;
  /** Who the delivery belongs to in the service's terms (its dashboard lists and re-sends only its own). */
  ownerId?: string | null;
  /**
   * The exact body. A string is stored as is; anything else is JSON.stringify-ed once, here. Either way the
   * stored text's UTF-8 bytes are sent, unchanged, on every attempt (a retry carries the original timestamp), unless
   * the service's worker renders each attempt's body (`renderBody`).
   */
  body: string | object;
  /** What `resolveSigningSecret` turns into the secret current at send time. */
  signingSecretRef: string;
  /** Defaults to the service's spec headers (WEBHOOK_HEADER_NAMES). */
  headerNames?: WebhookHeaderNames;
  /** Defaults to the service's spec schedule (WEBHOOK_SCHEDULES). */
  schedule?: WebhookSchedule;
  /** Set by `redeliverWebhook`. */
  redeliveryOf?: string | null;
}

/** A queued delivery and the outbox entry that starts its workflow (dispatch it after the commit). */
export interface QueuedWebhookDelivery {
  delivery: WebhookDelivery;
  outboxEntry: OutboxEntryRef;
}

function headerNamesFor(service: ServiceName, given: WebhookHeaderNames | undefined): WebhookHeaderNames {
  if (given) return given;
  const known = (WEBHOOK_HEADER_NAMES as Partial<Record<ServiceName, WebhookHeaderNames>>)[service];
  if (!known) throw new Error(`enqueueWebhookDelivery: no default webhook header names for service "${service}"; pass headerNames`);
  return known;
}

function scheduleFor(service: ServiceName, given: WebhookSchedule | undefined): WebhookSchedule {
  const schedule = given ?? (WEBHOOK_SCHEDULES as Partial<Record<ServiceName, WebhookSchedule>>)[service];
  if (!schedule) throw new Error(`enqueueWebhookDelivery: no webhook schedule for service "${service}"; pass schedule`);
  assertValidWebhookSchedule(schedule);
  return schedule;
}

/**
 * What an operator sees for a delivery's workflow in the Temporal UI: event, receiving host and delivery number. Only
 * the host of the endpoint: a receiver's path or query may carry its own token.
 */
export function webhookWorkflowMetadata(delivery: Pick<WebhookDelivery, 'id' | 'service' | 'eventName' | 'eventId' | 'endpointUrl' | 'deliveryNumber'>): {
  summary: string;
  details: string;
} {
  let host = 'unknown host';
  try {
    host = new URL(delivery.endpointUrl).host;
  } catch {
    // A stored URL always parsed when it was saved; keep the summary even if one does not.
  }
  return {
    summary: `${delivery.service} ${delivery.eventName} to ${host} (delivery ${delivery.deliveryNumber})`,
    details: [`- delivery: ${delivery.id}`, `- event id: ${delivery.eventId}`, `- endpoint host: ${host}`].join('\n'),
  };
}

/** The next delivery number of an event, serialized per event with a transaction-scoped advisory lock. */
async function nextDeliveryNumber(tx: EntityManager, eventId: string): Promise<number> {
  const connection = tx.getConnection();
  await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [`webhook_deliveries:${eventId}`], 'run', tx.getTransactionContext());
  const [row] = await connection.execute<Array<{ next: number }>>(
    'select coalesce(max(delivery_number), 0) + 1 as next from webhook_deliveries where event_id = ?',
    [eventId],
    'all',
    tx.getTransactionContext(),
  );
  return Number(row?.next ?? 1);
}

/**
 * Inserts a queued delivery and the outbox start of its delivery workflow in the caller's transaction (opens one when
 * the EntityManager is not in a transaction). Nothing is sent until the outbox dispatches the start after the commit;
 * the worker's outbox sweeper covers a crash in between.
 */
export async function enqueueWebhookDelivery(em: EntityManager, input: EnqueueWebhookDeliveryInput): Promise<QueuedWebhookDelivery> {
  const run = async (tx: EntityManager): Promise<QueuedWebhookDelivery> => {
    const headers = headerNamesFor(input.service, input.headerNames);
    const schedule = scheduleFor(input.service, input.schedule);
    const deliveryNumber = await nextDeliveryNumber(tx, input.eventId);
    const delivery = tx.create(WebhookDelivery, {
      id: randomUUID(),
      service: input.service,
      eventId: input.eventId,
      eventName: input.eventName,
      deliveryNumber,
      redeliveryOf: input.redeliveryOf ?? null,
      endpointId: input.endpointId ?? null,
      ownerId: input.ownerId ?? null,
      endpointUrl: input.endpointUrl,
      body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
      eventHeader: headers.event,
      signatureHeader: headers.signature,
      signatureScheme: headers.scheme ?? DEFAULT_WEBHOOK_SIGNATURE_SCHEME,
      signingSecretRef: input.signingSecretRef,
      status: 'queued',
      workflowId: webhookDeliveryWorkflowId(input.service, input.eventId, deliveryNumber),
      attemptCount: 0,
    });
    await tx.flush();
    const workflowInput: WebhookDeliveryWorkflowInput = { service: input.service, deliveryId: delivery.id, schedule };
    const outboxEntry = await enqueueWorkflowStart(tx, {
      workflowType: WORKFLOW_TYPES.webhookDelivery,
      workflowId: delivery.workflowId,
      taskQueue: TASK_QUEUES[input.service],
      args: [workflowInput],
      ...webhookWorkflowMetadata(delivery),
    });
    return { delivery, outboxEntry };
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
 * Manual re-send: a NEW delivery of the same event (next delivery number, own workflow, own attempts), queued in the
 * caller's transaction like `enqueueWebhookDelivery`; dispatch its outbox entry after the commit.
 */
export async function redeliverWebhook(em: EntityManager, original: WebhookDelivery, options: RedeliverOptions = {}): Promise<QueuedWebhookDelivery> {
  return enqueueWebhookDelivery(em, {
    service: original.service as ServiceName,
    eventId: original.eventId,
    eventName: original.eventName,
    endpointUrl: options.endpointUrl ?? original.endpointUrl,
    endpointId: original.endpointId ?? null,
    ownerId: original.ownerId ?? null,
    body: options.body ?? original.body,
    signingSecretRef: options.signingSecretRef ?? original.signingSecretRef,
    headerNames: { event: original.eventHeader, signature: original.signatureHeader },
    redeliveryOf: original.id,
  });
}
