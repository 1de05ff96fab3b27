import { defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InvoiceExpiryActivities } from '../activities.js';
import { INVOICE_SIGNALS } from '../constants.js';
import type { InvoiceExpiryWorkflowInput, InvoiceExpiryWorkflowResult } from '../types.js';
import { expireAtDeadline } from './deadline-expiry.js';

export const invoiceSettledSignal = defineSignal(INVOICE_SIGNALS.settled);
export const invoiceCancelledSignal = defineSignal(INVOICE_SIGNALS.cancelled);

/**
 * One workflow per invoice (id `invoiceWorkflowId`: the request's internal id, never its slug): a durable timer until
 * the invoice's expires_at (measured in workflow time), then the activity expires it if it is still pending/partial,
 * which emits payment.expired through the service's event sink. The `settled` and `cancelled` signals end it early without touching the invoice.
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

  return expireAtDeadline({
    expiresAt: input.expiresAt,
    endedBy: () => endedBy,
    check: () => expireInvoiceIfDue({ paymentRequestId: input.paymentRequestId }),
    logFields: { what: 'invoice', paymentRequestId: input.paymentRequestId },
  });
}
