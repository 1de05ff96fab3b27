// The widget session status engine (spec "States and transitions", session statuses), as pure functions over a
// session's state: no database, no clock of its own (callers pass `now`). Every transition is a branch here and a unit
// test in test/widget-session-status-engine.test.ts; the README's Decisions table states the rules in prose.
//
//   initialized ──(eligibility check)──► eligible ──(checkout confirmed, loan booked)──► authorized
//        │                               │   └──(shopper declined at confirm)──► ineligible
//        └──(no enabled plan covers the amount, or a declined test shopper)──────► ineligible
//   initialized | eligible | ineligible ──(cancel)──► cancelled
//   initialized | eligible | ineligible ──(expires_at reached)──► expired
// authorized, cancelled and expired are final.

export const SESSION_STATUSES = ['initialized', 'eligible', 'ineligible', 'authorized', 'cancelled', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Statuses a session can still leave (by eligibility, authorization, cancel or expiry). */
export const OPEN_SESSION_STATUSES: readonly SessionStatus[] = ['initialized', 'eligible', 'ineligible'];

export interface SessionState {
  status: SessionStatus;
  expiresAt: Date;
}

export type SessionTransition = { ok: true; state: SessionState } | { ok: false; status: SessionStatus; reason: SessionRefusal };

/** Why a transition was refused: the session is already final (its effective status says which), or not eligible. */
export type SessionRefusal = 'final' | 'not_eligible';

export function isOpen(status: SessionStatus): boolean {
  return OPEN_SESSION_STATUSES.includes(status);
}

/** The deadline itself counts as passed. */
export function isPastDeadline(state: SessionState, now: Date): boolean {
  return now.getTime() >= state.expiresAt.getTime();
}

/** The status to report at `now`: an open session past expires_at reads `expired` even before the expiry workflow stored it. */
export function effectiveStatus(state: SessionState, now: Date): SessionStatus {
  return isOpen(state.status) && isPastDeadline(state, now) ? 'expired' : state.status;
}

function refuse(state: SessionState, now: Date, reason: SessionRefusal): SessionTransition {
  return { ok: false, status: effectiveStatus(state, now), reason };
}

/** The eligibility decision: from initialized or eligible (a confirm may decline a shopper) while the session is live. */
export function applyEligibility(state: SessionState, decision: 'eligible' | 'ineligible', now: Date): SessionTransition {
  if (effectiveStatus(state, now) === 'ineligible') return decision === 'ineligible' ? { ok: true, state } : refuse(state, now, 'not_eligible');
  if (!['initialized', 'eligible'].includes(effectiveStatus(state, now))) return refuse(state, now, 'final');
  return { ok: true, state: { ...state, status: decision } };
}

/** Checkout confirmed and the loan booked: only an eligible, live session. */
export function applyAuthorization(state: SessionState, now: Date): SessionTransition {
  const status = effectiveStatus(state, now);
  if (status === 'eligible') return { ok: true, state: { ...state, status: 'authorized' } };
  return refuse(state, now, isOpen(status) ? 'not_eligible' : 'final');
}

/** Cancel: from any open status before the deadline; authorized, cancelled and expired sessions cannot be cancelled. */
export function applyCancel(state: SessionState, now: Date): SessionTransition {
  if (!isOpen(effectiveStatus(state, now))) return refuse(state, now, 'final');
  return { ok: true, state: { ...state, status: 'cancelled' } };
}

/** The expiry workflow's step: stores `expired` for an open session past its deadline; anything else is unchanged. */
export function applyExpiry(state: SessionState, now: Date): SessionTransition {
  if (isOpen(state.status) && isPastDeadline(state, now)) return { ok: true, state: { ...state, status: 'expired' } };
  return refuse(state, now, 'final');
}
