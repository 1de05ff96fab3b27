// The event catalogue of the bnpl spec ("Events"), defined once: the six events the service emits and the seven it
// accepts for subscription but never emits. An endpoint may subscribe to any of the thirteen; only the first six are
// ever delivered (the webhooks module refuses to emit a reserved name).
import { LOAN_EVENTS } from '../loans/index.js';

/** Emitted events; this issue emits the loan events, part 2 the installment and settlement ones (same path). */
export const EMITTED_WEBHOOK_EVENTS = [...LOAN_EVENTS, 'installment.paid', 'installment.missed', 'settlement.processed'] as const;
export type EmittedWebhookEvent = (typeof EMITTED_WEBHOOK_EVENTS)[number];

/** "Accepted for subscription but never emitted." */
export const RESERVED_WEBHOOK_EVENTS = ['order.created', 'loan.cancelled', 'installment.due', 'refund.requested', 'refund.completed', 'dispute.opened', 'dispute.resolved'] as const;
export type ReservedWebhookEvent = (typeof RESERVED_WEBHOOK_EVENTS)[number];

/** Every name an endpoint may subscribe to, in the spec's order. */
export const WEBHOOK_EVENT_NAMES = [...EMITTED_WEBHOOK_EVENTS, ...RESERVED_WEBHOOK_EVENTS] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export function isEmittedWebhookEvent(name: string): name is EmittedWebhookEvent {
  return (EMITTED_WEBHOOK_EVENTS as readonly string[]).includes(name);
}
