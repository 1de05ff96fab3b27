// Activities of the invoice expiry workflow (contract: InvoiceExpiryActivities in @tributary/workflows). Built by a
// factory with the payment request domain injected, so the worker and the tests share one path:
// PaymentRequestService.expireIfDue, which stores `expired` under a row lock and hands payment.expired to the
// service's event sink in the same transaction.
import { NotFoundError } from '@tributary/kit';
import type { ExpireInvoiceResult, InvoiceExpiryActivities } from '@tributary/workflows';
import type { PaymentRequestService } from '../payment-requests/index.js';

export interface InvoiceActivitiesDeps {
  /** The payment request domain with the service's event sink (the worker runs each activity in its own ORM context). */
  paymentRequests: PaymentRequestService;
}

export function createInvoiceActivities(deps: InvoiceActivitiesDeps): InvoiceExpiryActivities {
  return {
    async expireInvoiceIfDue({ paymentRequestId }): Promise<ExpireInvoiceResult> {
      let change;
      try {
        change = await deps.paymentRequests.expireIfDue(paymentRequestId);
      } catch (error) {
        // The request is gone (its account was deleted): nothing will ever expire; retrying would not help.
        if (error instanceof NotFoundError) return { outcome: 'final', status: 'not_found', expiresAt: null };
        throw error;
      }
      const { paymentRequest: request, events } = change;
      const expiresAt = request.expiresAt ? request.expiresAt.toISOString() : null;
      if (events.some((e) => e.event === 'payment.expired')) return { outcome: 'expired', status: request.status, expiresAt };
      const open = request.type === 'invoice' && expiresAt !== null && (request.status === 'pending' || request.status === 'partial');
      return { outcome: open ? 'not_due' : 'final', status: request.status, expiresAt };
    },
  };
}
