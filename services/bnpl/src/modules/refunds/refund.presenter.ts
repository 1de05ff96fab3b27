import type { Refund } from './refund.entity.js';

/** A refund on the wire (spec "Refund": id, loan_id, amount_cents, reason, status; the rest decided, see the README). */
export function presentRefund(refund: Refund) {
  return {
    id: refund.id,
    loan_id: refund.loan.id,
    amount_cents: refund.amountCents,
    currency: refund.currency,
    reason: refund.reason,
    status: refund.status,
    failure_reason: refund.failureReason,
    returned_to_shopper_cents: refund.returnedToShopperCents,
    livemode: refund.livemode,
    created_at: refund.createdAt.toISOString(),
    updated_at: refund.updatedAt.toISOString(),
    processed_at: refund.processedAt?.toISOString() ?? null,
  };
}
