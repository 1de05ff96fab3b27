// The PaymentEventSink that turns the status engine's events into webhook deliveries (outbox style): inside the
// transaction that changed the request, one delivery row per event (when the request has a webhook_url); after the
// commit the dispatcher starts their Temporal workflows. Nothing is ever sent inline: the shared delivery workflow
// on the worker sends and retries on the crypto schedule. If the process dies between commit and start, the worker's
// sweeper starts the rows that were never started.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookDelivery, type Logger, type WebhookDispatcher } from '@tributary/kit';
import { signingSecretRef } from '../accounts/signing-secret.js';
import type { AfterCommit, PaymentDomainEvent, PaymentEventSink } from '../payment-requests/payment-request.events.js';
import type { PaymentRequest } from '../payment-requests/payment-request.entity.js';
import { WEBHOOK_EVENTS, paymentWebhookBody } from './payment-webhook-body.js';

export const WEBHOOK_SERVICE = 'crypto';
const PAYMENT_REQUEST_ENDPOINT_PREFIX = 'payment_request:';

export interface PaymentWebhookSinkOptions {
  /** Starts the workflows after the commit. Without one the worker's sweeper starts them (within about a minute). */
  dispatcher?: WebhookDispatcher;
  logger?: Logger;
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
 * The event id: stable per (request, event occurrence). payment.paid and payment.expired happen at most once per
 * request (occurrence 1); payment.late once per late payment (1, 2, ...). Counted under the request's row lock,
 * which every state change holds, so two occurrences never share an id.
 */
async function nextEventId(tx: EntityManager, request: PaymentRequest, event: string): Promise<string> {
  const prefix = `${request.slug}-${event}-`;
  const [row] = await tx.getConnection().execute<Array<{ n: string | number }>>(
    'select count(distinct event_id) as n from webhook_deliveries where service = ? and endpoint_id = ? and event_name = ? and redelivery_of is null',
    [WEBHOOK_SERVICE, paymentRequestEndpointId(request.id), event],
    'all',
    tx.getTransactionContext(),
  );
  return `${prefix}${Number(row?.n ?? 0) + 1}`;
}

export function createPaymentWebhookSink(options: PaymentWebhookSinkOptions = {}): PaymentEventSink {
  const now = options.now ?? (() => new Date());
  return {
    async emit(tx: EntityManager, request: PaymentRequest, events: readonly PaymentDomainEvent[]): Promise<AfterCommit | void> {
      if (!request.webhookUrl) return;
      const ids: string[] = [];
      for (const { event } of events) {
        if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) continue;
        const delivery = await enqueueWebhookDelivery(tx, {
          service: WEBHOOK_SERVICE,
          eventId: await nextEventId(tx, request, event),
          eventName: event,
          endpointUrl: request.webhookUrl,
          endpointId: paymentRequestEndpointId(request.id),
          body: JSON.stringify(paymentWebhookBody(request, event, now())),
          signingSecretRef: signingSecretRef(request.account.id),
        });
        ids.push(delivery.id);
      }
      const { dispatcher, logger } = options;
      if (ids.length === 0 || !dispatcher) return;
      return async () => {
        const result = await dispatcher.dispatch(ids);
        if (result.failed.length > 0) logger?.warn({ deliveryIds: result.failed }, 'webhook deliveries not started now; the worker sweeper starts them');
      };
    },
  };
}
