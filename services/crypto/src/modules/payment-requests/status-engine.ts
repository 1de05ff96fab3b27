// The payment request status engine (spec "States and transitions"), as pure functions over a request's state:
// no database, no clock of its own (callers pass `now`). Every row of the transitions table is a branch here and a
// unit test in test/payment-request-status-engine.test.ts. Decisions on the spec's "not shown" points are in the
// README's Decisions table.
import { Amount } from '../../money/index.js';

export const PAYMENT_REQUEST_TYPES = ['invoice', 'donation'] as const;
export type PaymentRequestType = (typeof PAYMENT_REQUEST_TYPES)[number];

export const PAYMENT_REQUEST_STATUSES = ['pending', 'partial', 'paid', 'overpaid', 'expired', 'cancelled'] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

/** The only webhook events there are (spec "Events"). */
export const PAYMENT_EVENTS = ['payment.paid', 'payment.late', 'payment.expired'] as const;
export type PaymentEventName = (typeof PAYMENT_EVENTS)[number];

/** Statuses that count as settled: cancel refuses them (422). */
export const SETTLED_STATUSES: readonly PaymentRequestStatus[] = ['paid', 'overpaid'];

export const SETTLED_CANCEL_MESSAGE = 'A settled request cannot be cancelled.';

/** The 422's `errors.status` beside SETTLED_CANCEL_MESSAGE: the status that refuses the cancel. */
export const settledCancelFieldErrors = (status: PaymentRequestStatus): { status: string[] } => ({
  status: [`The request is ${status}; only a pending, partial or expired request can be cancelled.`],
});

/** What the engine reads and writes of a request. */
export interface RequestState {
  type: PaymentRequestType;
  /** Stored status (a pending/partial invoice past its deadline may still be stored as pending/partial). */
  status: PaymentRequestStatus;
  amountRequested: Amount | null;
  amountPaid: Amount;
  expiresAt: Date | null;
  paidAt: Date | null;
}

export interface Transition {
  state: RequestState;
  /** Domain events that occurred, in order (what the webhook engine turns into deliveries). */
  events: PaymentEventName[];
}

export function isSettled(status: PaymentRequestStatus): boolean {
  return SETTLED_STATUSES.includes(status);
}

/** Whether the request's deadline has passed at `now` (donations have none). The deadline itself counts as passed. */
export function isPastDeadline(state: Pick<RequestState, 'type' | 'expiresAt'>, now: Date): boolean {
  return state.type === 'invoice' && state.expiresAt !== null && now.getTime() >= state.expiresAt.getTime();
}

/**
 * The status to report at `now`: a pending or partial invoice past its deadline reads `expired` even before the
 * expiry workflow stored it (spec: "reports expired even before the periodic sweep has run").
 */
export function effectiveStatus(state: Pick<RequestState, 'type' | 'status' | 'expiresAt'>, now: Date): PaymentRequestStatus {
  if ((state.status === 'pending' || state.status === 'partial') && isPastDeadline(state, now)) return 'expired';
  return state.status;
}

/** Amount still to pay: requested minus paid, never below zero; null on a donation link. */
export function amountOutstanding(state: Pick<RequestState, 'amountRequested' | 'amountPaid'>): Amount | null {
  if (state.amountRequested === null) return null;
  return Amount.max(Amount.ZERO, state.amountRequested.minus(state.amountPaid));
}

/** The excess to refund on an overpaid request (zero otherwise). */
export function amountExcess(state: Pick<RequestState, 'amountRequested' | 'amountPaid'>): Amount {
  if (state.amountRequested === null) return Amount.ZERO;
  return Amount.max(Amount.ZERO, state.amountPaid.minus(state.amountRequested));
}

/**
 * Deadline row: a pending or partial invoice whose deadline has passed becomes `expired` and `payment.expired`
 * occurs (its webhook carries any partial amount_paid). Anything else is unchanged, without events.
 */
export function applyExpiry(state: RequestState, now: Date): Transition {
  if (effectiveStatus(state, now) === 'expired' && state.status !== 'expired') {
    return { state: { ...state, status: 'expired' }, events: ['payment.expired'] };
  }
  return { state, events: [] };
}

/**
 * A confirmed (counted) payment of `amount` (> 0) arrives at `now`.
 * - A deadline that has passed is applied first (expired + payment.expired), so a payment after the deadline is late
 *   even when the workflow has not run yet.
 * - invoice pending/partial: total below requested -> partial; equal -> paid; above -> overpaid. Reaching paid or
 *   overpaid sets paid_at and sends payment.paid (overpaid sends payment.paid too: the request is settled in full).
 * - invoice paid/overpaid: credited, becomes overpaid (the excess grows); no event (payment.paid was sent once).
 * - expired: credited, status stays expired, paid_at stays null, payment.late (never payment.paid).
 * - cancelled: credited (the coins did arrive), status stays cancelled, no event.
 * - donation: the first counted payment makes it paid (paid_at, payment.paid); later ones are credited, no event.
 */
export function applyPayment(state: RequestState, amount: Amount, now: Date): Transition {
  if (!amount.isPositive()) throw new RangeError('A payment amount must be positive');
  const expiry = applyExpiry(state, now);
  const current = expiry.state;
  const amountPaid = current.amountPaid.plus(amount);
  const credited: RequestState = { ...current, amountPaid };
  const events = [...expiry.events];

  switch (current.status) {
    case 'cancelled':
      return { state: credited, events };
    case 'expired':
      return { state: credited, events: [...events, 'payment.late'] };
    default:
      break;
  }
  if (current.type === 'donation' || current.amountRequested === null) {
    if (current.status === 'paid') return { state: credited, events };
    return { state: { ...credited, status: 'paid', paidAt: current.paidAt ?? now }, events: [...events, 'payment.paid'] };
  }
  const requested = current.amountRequested;
  if (current.status === 'paid' || current.status === 'overpaid') {
    return { state: { ...credited, status: amountPaid.greaterThan(requested) ? 'overpaid' : current.status }, events };
  }
  // pending or partial invoice within its deadline.
  if (amountPaid.lessThan(requested)) return { state: { ...credited, status: 'partial' }, events };
  const status = amountPaid.equals(requested) ? 'paid' : 'overpaid';
  return { state: { ...credited, status, paidAt: current.paidAt ?? now }, events: [...events, 'payment.paid'] };
}

export type CancelOutcome = { ok: true; state: RequestState } | { ok: false; reason: 'settled' };

/**
 * POST cancel: a settled request (paid, overpaid) is refused; an already cancelled one stays cancelled (idempotent);
 * anything else — pending, partial, expired (stored or by deadline) — becomes cancelled. No event.
 */
export function applyCancel(state: RequestState): CancelOutcome {
  if (isSettled(state.status)) return { ok: false, reason: 'settled' };
  return { ok: true, state: { ...state, status: 'cancelled' } };
}

export interface Reversal extends Transition {
  /**
   * An invoice that was settled (paid/overpaid) and is open again within its deadline: its expiry workflow, ended
   * when it settled, must run again.
   */
  reopened: boolean;
}

/**
 * A counted payment of `amount` is taken back at `now` (its block left the chain in a reorg; README Decisions,
 * "Reorg"). The inverse of applyPayment, with no event of its own (the spec has exactly three):
 * - amount_paid drops by the amount; expired and cancelled requests keep their status.
 * - a paid/overpaid invoice still covered stays paid (overpaid while above the requested amount); one no longer covered
 *   is open again (partial, or pending at zero) with paid_at cleared, and `reopened`; past its deadline it is expired
 *   at once with payment.expired (the window closed without full payment).
 * - a donation whose only payment is taken back is pending again.
 */
export function applyReversal(state: RequestState, amount: Amount, now: Date): Reversal {
  if (!amount.isPositive()) throw new RangeError('A reversed amount must be positive');
  if (amount.greaterThan(state.amountPaid)) throw new RangeError('A reversal cannot take back more than was paid');
  const amountPaid = state.amountPaid.minus(amount);
  const reduced: RequestState = { ...state, amountPaid };
  const unchanged = { state: reduced, events: [], reopened: false };
  if (state.status === 'expired' || state.status === 'cancelled') return unchanged;
  if (state.type === 'donation' || state.amountRequested === null) {
    return amountPaid.isPositive() ? unchanged : { state: { ...reduced, status: 'pending', paidAt: null }, events: [], reopened: false };
  }
  const requested = state.amountRequested;
  if (!amountPaid.lessThan(requested)) return { ...unchanged, state: { ...reduced, status: amountPaid.equals(requested) ? 'paid' : 'overpaid' } };
  const open: RequestState = { ...reduced, status: amountPaid.isPositive() ? 'partial' : 'pending', paidAt: null };
  const expiry = applyExpiry(open, now);
  return { ...expiry, reopened: isSettled(state.status) && expiry.events.length === 0 };
}
