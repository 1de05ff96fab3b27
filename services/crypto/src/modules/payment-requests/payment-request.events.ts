// The hook through which payment request state changes leave this module. The status engine decides which of the
// spec's three events occurred; the service hands them to a PaymentEventSink INSIDE the same transaction as the
// state change (so a webhook delivery is queued atomically, outbox style) and also returns them.
// Webhook emission itself is not part of this module: the default sink does nothing.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { PaymentRequest } from './payment-request.entity.js';
import type { PaymentEventName } from './status-engine.js';

export interface PaymentDomainEvent {
  event: PaymentEventName;
  paymentRequestId: number;
  /** Public id of the request (the webhook body's `id`). */
  slug: string;
  accountId: number;
  occurredAt: Date;
}

export interface PaymentEventSink {
  /**
   * Called inside the transaction that changed `request` (already flushed), with the events that occurred. Returns
   * the work to run once that transaction has committed (e.g. dispatching the deliveries it queued), if any.
   */
  emit(tx: EntityManager, request: PaymentRequest, events: readonly PaymentDomainEvent[]): Promise<AfterCommit | undefined>;
}

/** Records nothing: a service without webhooks (tools, unit tests). */
export const noPaymentEvents: PaymentEventSink = { emit: async () => undefined };

export function domainEvents(request: PaymentRequest, events: readonly PaymentEventName[], occurredAt: Date): PaymentDomainEvent[] {
  return events.map((event) => ({ event, paymentRequestId: request.id, slug: request.slug, accountId: request.account.id, occurredAt }));
}
