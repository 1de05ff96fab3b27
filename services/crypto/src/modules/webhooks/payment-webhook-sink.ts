// The PaymentEventSink that turns the status engine's events into webhook deliveries (outbox style): inside the
// transaction that changed the request, one delivery per event (when the request has a webhook_url), each with the start
// of its delivery workflow in the workflow outbox; after the commit the outbox dispatches them. Nothing is ever sent
// inline: the shared delivery workflow on the worker sends and retries on the crypto schedule. If the process dies
// between commit and dispatch, the worker's outbox sweeper dispatches them.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookDelivery, type AfterCommit, type OutboxEntryRef, type WebhookDelivery, type WorkflowOutbox } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { signingSecretRef } from '../accounts/index.js';
import { PaymentRequest, type PaymentDomainEvent, type PaymentEventSink } from '../payment-requests/index.js';
import { WEBHOOK_EVENTS, paymentWebhookBody, paymentWebhookBodyAt } from './payment-webhook-body.js';

const PAYMENT_REQUEST_ENDPOINT_PREFIX = 'payment_request:';

export interface PaymentWebhookSinkOptions {
  /** Dispatches the deliveries after the commit. Without one the worker's outbox sweeper does (within about 15 s). */
  outbox?: WorkflowOutbox | undefined;
  /** Clock of the body's `timestamp` (enqueue time). */
  now?: () => Date;
}

/** `endpointId` of a request's deliveries: its internal id, so a request's deliveries can be listed. */
export function paymentRequestEndpointId(paymentRequestId: number): string {
  return `${PAYMENT_REQUEST_ENDPOINT_PREFIX}${paymentRequestId}`;
}

/** The internal id inside an `endpointId` made by paymentRequestEndpointId, or null for any other value. */
export function paymentRequestIdOfEndpoint(endpointId: string | null | undefined): number | null {
  if (!endpointId?.startsWith(PAYMENT_REQUEST_ENDPOINT_PREFIX)) return null;
  const id = endpointId.slice(PAYMENT_REQUEST_ENDPOINT_PREFIX.length);
  return /^\d+$/.test(id) ? Number(id) : null;
}

/**
 * The body an attempt of `delivery` sends at `sentAt`: the stored body with the request's state read now
 * (`paymentWebhookBodyAt`); the stored body as it is when the request is gone.
 */
export async function renderPaymentWebhookBody(em: EntityManager, delivery: WebhookDelivery, sentAt: Date): Promise<string> {
  const id = paymentRequestIdOfEndpoint(delivery.endpointId);
  const request = id === null ? null : await em.findOne(PaymentRequest, { id });
  return request ? paymentWebhookBodyAt(delivery.body, request, sentAt) : delivery.body;
}

/** `ownerId` of an account's deliveries: the merchant's dashboard lists and re-sends only these. */
export function deliveryOwnerId(accountId: number): string {
  return String(accountId);
}

/**
 * The event id: stable per (request, event occurrence). payment.late is one occurrence per late payment, named by it
 * (`<slug>-payment.late-<txid>:<output index>`, what its body carries), so a payment counted again after a reorg is a
 * repeat of the same occurrence. payment.paid and payment.expired are counted (normally once per request: 1) under
 * the request's row lock, which every state change holds, so two occurrences never share an id.
 */
async function eventIdOf(tx: EntityManager, request: PaymentRequest, { event, payment }: PaymentDomainEvent): Promise<string> {
  if (event === 'payment.late' && payment) return `${request.slug}-${event}-${payment.txid}:${payment.outputIndex}`;
  return nextEventId(tx, request, event);
}

async function nextEventId(tx: EntityManager, request: PaymentRequest, event: string): Promise<string> {
  const [row] = await tx.getConnection().execute<Array<{ n: string | number }>>(
    'select count(distinct event_id) as n from webhook_deliveries where service = ? and endpoint_id = ? and event_name = ? and redelivery_of is null',
    [SERVICE_NAME, paymentRequestEndpointId(request.id), event],
    'all',
    tx.getTransactionContext(),
  );
  return `${request.slug}-${event}-${Number(row?.n ?? 0) + 1}`;
}

export function createPaymentWebhookSink(options: PaymentWebhookSinkOptions = {}): PaymentEventSink {
  const now = options.now ?? (() => new Date());
  return {
    async emit(tx: EntityManager, request: PaymentRequest, events: readonly PaymentDomainEvent[]): Promise<AfterCommit | undefined> {
      if (!request.webhookUrl) return undefined;
      const queued: OutboxEntryRef[] = [];
      for (const domainEvent of events) {
        const { event, payment } = domainEvent;
        if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) continue;
        const { outboxEntry } = await enqueueWebhookDelivery(tx, {
          service: SERVICE_NAME,
          eventId: await eventIdOf(tx, request, domainEvent),
          eventName: event,
          endpointUrl: request.webhookUrl,
          endpointId: paymentRequestEndpointId(request.id),
          ownerId: deliveryOwnerId(request.account.id),
          body: JSON.stringify(paymentWebhookBody(request, event, now(), payment)),
          signingSecretRef: signingSecretRef(request.account.id),
        });
        queued.push(outboxEntry);
      }
      return options.outbox?.dispatchAfterCommit(queued);
    },
  };
}
