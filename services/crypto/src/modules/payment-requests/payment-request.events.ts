// The hook through which payment request state changes leave this module. The status engine decides which of the
// spec's three events occurred; the service hands them to a PaymentEventSink INSIDE the same transaction as the
// state change (so a webhook delivery is queued atomically, outbox style) and also returns them.
// Webhook emission itself is not part of this module: the default sink does nothing.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { Amount } from '../../money/index.js';
import type { PaymentRequest } from './payment-request.entity.js';
import type { PaymentEventName } from './status-engine.js';

/** The on-chain payment an event is about (its chain is the request's). */
export interface PaymentRef {
  txid: string;
  outputIndex: number;
  amount: Amount;
}

export interface PaymentDomainEvent {
  event: PaymentEventName;
  paymentRequestId: number;
  /** Public id of the request (the webhook body's `id`). */
  slug: string;
  accountId: number;
  occurredAt: Date;
  /** payment.late only: the late payment (one event per late payment). */
  payment?: PaymentRef;
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

/** The engine's events as domain events; `payment` (the payment that caused them) is attached to payment.late. */
export function domainEvents(request: PaymentRequest, events: readonly PaymentEventName[], occurredAt: Date, payment?: PaymentRef): PaymentDomainEvent[] {
  return events.map((event) => ({
    event,
    paymentRequestId: request.id,
    slug: request.slug,
    accountId: request.account.id,
    occurredAt,
    ...(event === 'payment.late' && payment ? { payment } : {}),
  }));
}
