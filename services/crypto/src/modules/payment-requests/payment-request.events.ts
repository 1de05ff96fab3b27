// The hook through which payment request state changes leave this module. The status engine decides which of the
// spec's three events occurred; the service hands them to a PaymentEventSink INSIDE the same transaction as the
// state change (so a webhook delivery row can be enqueued atomically, outbox style) and also returns them.
// Webhook emission itself is not part of this module: the default sink does nothing.
import type { EntityManager } from '@mikro-orm/postgresql';
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

/** Work a sink wants done once the transaction has committed (e.g. starting webhook delivery workflows). Never throws. */
export type AfterCommit = () => Promise<void>;

export interface PaymentEventSink {
  /**
   * Called inside the transaction that changed `request` (already flushed), with the events that occurred. May
   * return an AfterCommit hook, which the service runs after the commit (never on rollback).
   */
  emit(tx: EntityManager, request: PaymentRequest, events: readonly PaymentDomainEvent[]): Promise<AfterCommit | void>;
}

/** Runs a sink's after-commit hook, if any (hooks must not throw; a failure here must not fail the committed change). */
export async function runAfterCommit(hook: AfterCommit | void): Promise<void> {
  if (hook) await hook();
}

/** Records nothing: the default until the webhook engine is wired in. */
export const noPaymentEvents: PaymentEventSink = { emit: async () => {} };

export function domainEvents(request: PaymentRequest, events: readonly PaymentEventName[], occurredAt: Date): PaymentDomainEvent[] {
  return events.map((event) => ({ event, paymentRequestId: request.id, slug: request.slug, accountId: request.account.id, occurredAt }));
}
