// The loop shared by the expiry workflows (crypto invoices, bnpl widget sessions): a durable timer until the record's
// deadline, unless a signal ends it first; then the service's activity expires the record if it is still open and due.
// If the activity's clock is behind the server's it answers `not_due` with the deadline, and the loop waits again.
import { condition, log } from '@temporalio/workflow';

/** What an expiry activity answers (ExpireInvoiceResult, ExpireWidgetSessionResult). */
export interface DeadlineCheck {
  outcome: 'expired' | 'not_due' | 'final';
  status: string;
  expiresAt: string | null;
}

export interface DeadlineExpiryOptions<S extends string> {
  /** The record's deadline, ISO 8601. */
  expiresAt: string;
  /** The signal that ended the workflow early, or null while none has arrived. */
  endedBy: () => S | null;
  /** The expiry activity. */
  check: () => Promise<DeadlineCheck>;
  /** Names the record in logs, e.g. `{ what: 'invoice', paymentRequestId }`. */
  logFields: Record<string, unknown>;
}

export interface DeadlineExpiryResult<S extends string> {
  /** `expired`: the activity expired it; a signal's name: ended early by it; `unchanged`: nothing to expire at the deadline. */
  outcome: 'expired' | 'unchanged' | S;
  /** Stored status reported by the last activity call; null when ended by signal before the deadline. */
  status: string | null;
}

/** Waits again after a `not_due` answer (worker clock behind the server's) at least this long, and at most this many times. */
const RECHECK_MIN_MS = 1_000;
const MAX_CHECKS = 10;

export async function expireAtDeadline<S extends string>(options: DeadlineExpiryOptions<S>): Promise<DeadlineExpiryResult<S>> {
  let deadline = Date.parse(options.expiresAt);
  if (Number.isNaN(deadline)) throw new Error(`expiry workflow: bad expiresAt ${options.expiresAt}`);
  let status: string | null = null;
  for (let check = 1; check <= MAX_CHECKS; check++) {
    // Date.now() is workflow time here (deterministic); condition() with a timeout is a durable timer.
    const waitMs = Math.max(0, deadline - Date.now());
    if (waitMs > 0) await condition(() => options.endedBy() !== null, waitMs);
    const signal = options.endedBy();
    if (signal !== null) {
      log.info('expiry workflow ended by signal', { ...options.logFields, signal });
      return { outcome: signal, status };
    }
    const result = await options.check();
    status = result.status;
    if (result.outcome === 'expired') return { outcome: 'expired', status };
    if (result.outcome === 'final' || result.expiresAt === null) return { outcome: 'unchanged', status };
    // not_due: wait for the (possibly moved) deadline again, at least RECHECK_MIN_MS.
    deadline = Math.max(Date.parse(result.expiresAt), Date.now() + RECHECK_MIN_MS);
  }
  log.warn('expiry workflow gave up: still not due after repeated checks', options.logFields);
  return { outcome: 'unchanged', status };
}
