import { condition, defineSignal, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InvoiceExpiryActivities } from '../activities.js';
import { INVOICE_SIGNALS } from '../constants.js';
import type { InvoiceExpiryWorkflowInput, InvoiceExpiryWorkflowResult } from '../types.js';

export const invoiceSettledSignal = defineSignal(INVOICE_SIGNALS.settled);
export const invoiceCancelledSignal = defineSignal(INVOICE_SIGNALS.cancelled);

/** Waits again after a `not_due` answer (worker clock behind the server's) at least this long, and at most this many times. */
const RECHECK_MIN_MS = 1_000;
const MAX_CHECKS = 10;

/**
 * One workflow per invoice (id `invoice-<slug>`): a durable timer until the invoice's expires_at (measured in workflow
 * time), then the activity expires it if it is still pending/partial, which emits payment.expired through the
 * service's event sink. The `settled` and `cancelled` signals end it early without touching the invoice.
 */
export async function invoiceExpiryWorkflow(input: InvoiceExpiryWorkflowInput): Promise<InvoiceExpiryWorkflowResult> {
  const { expireInvoiceIfDue } = proxyActivities<InvoiceExpiryActivities>({
    startToCloseTimeout: '1 minute',
    // Only infrastructure errors (database down) throw; "nothing to expire" is a result.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  let endedBy: 'settled' | 'cancelled' | null = null;
  setHandler(invoiceSettledSignal, () => {
    endedBy ??= 'settled';
  });
  setHandler(invoiceCancelledSignal, () => {
    endedBy ??= 'cancelled';
  });

  let deadline = Date.parse(input.expiresAt);
  if (Number.isNaN(deadline)) throw new Error(`invoiceExpiryWorkflow: bad expiresAt ${input.expiresAt}`);
  let status: string | null = null;
  for (let check = 1; check <= MAX_CHECKS; check++) {
    // Date.now() is workflow time here (deterministic); condition() with a timeout is a durable timer.
    const waitMs = Math.max(0, deadline - Date.now());
    if (waitMs > 0) await condition(() => endedBy !== null, waitMs);
    if (endedBy !== null) {
      log.info('invoice expiry workflow ended by signal', { slug: input.slug, signal: endedBy });
      return { outcome: endedBy, status };
    }
    const result = await expireInvoiceIfDue({ paymentRequestId: input.paymentRequestId, slug: input.slug });
    status = result.status;
    if (result.outcome === 'expired') return { outcome: 'expired', status };
    if (result.outcome === 'final' || result.expiresAt === null) return { outcome: 'unchanged', status };
    // not_due: wait for the (possibly moved) deadline again, at least RECHECK_MIN_MS.
    deadline = Math.max(Date.parse(result.expiresAt), Date.now() + RECHECK_MIN_MS);
  }
  log.warn('invoice expiry workflow gave up: invoice still not due after repeated checks', { slug: input.slug });
  return { outcome: 'unchanged', status };
}
