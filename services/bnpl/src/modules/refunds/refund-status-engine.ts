// The refund status engine (spec "Refund": requested, processing, processed, failed), as pure functions: no database,
// no clock of its own. Every transition is a branch here and a unit test in test/refund-status-engine.test.ts.
// Which loans may be refunded lives here too, so the rule and its test sit beside the statuses it reads.
import type { LoanStatus } from '../loans/index.js';

export const REFUND_STATUSES = ['requested', 'processing', 'processed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Loan statuses a refund is accepted for: the approved, funded, active and in_arrears, and paid_off (a shopper
 * who paid everything and returns the goods gets money back, as with any card purchase). Refused: pending (nothing
 * booked yet), cancelled (nothing was lent), defaulted and written_off (collections own the debt; a goodwill credit is
 * an operator adjustment, not a refund).
 */
export const REFUNDABLE_LOAN_STATUSES: readonly LoanStatus[] = ['approved', 'funded', 'active', 'in_arrears', 'paid_off'];

/** Statuses whose amount counts against the loan's principal: every refund that has not failed. */
export const COUNTED_REFUND_STATUSES: readonly RefundStatus[] = ['requested', 'processing', 'processed'];

export function isRefundable(loanStatus: LoanStatus): boolean {
  return REFUNDABLE_LOAN_STATUSES.includes(loanStatus);
}

/** What is still refundable of a loan: its principal minus every refund that has not failed; never below zero. */
export function refundableCents(principalCents: number, counted: ReadonlyArray<{ amountCents: number; status: RefundStatus }>): number {
  const taken = counted.filter((refund) => COUNTED_REFUND_STATUSES.includes(refund.status)).reduce((sum, refund) => sum + refund.amountCents, 0);
  return Math.max(0, principalCents - taken);
}

export type RefundStep = 'begin' | 'succeed' | 'fail';

export type RefundTransition = { ok: true; status: RefundStatus } | { ok: false; status: RefundStatus };

/**
 * The next status: begin (requested → processing), succeed (processing → processed), fail (processing → failed).
 * Anything else is refused with the current status (a replayed step after the refund moved on: the caller treats a
 * refused step on a final refund as done).
 */
export function applyRefundStep(status: RefundStatus, step: RefundStep): RefundTransition {
  if (step === 'begin' && status === 'requested') return { ok: true, status: 'processing' };
  if (step === 'succeed' && status === 'processing') return { ok: true, status: 'processed' };
  if (step === 'fail' && status === 'processing') return { ok: true, status: 'failed' };
  return { ok: false, status };
}

export function isFinalRefundStatus(status: RefundStatus): boolean {
  return status === 'processed' || status === 'failed';
}

/**
 * How a processed refund reduces what the shopper still owes: from the last unpaid installment backwards, each down to
 * zero at most; what is left over (more than the shopper still owes) goes back to the shopper's payment method.
 * Returns the new amount of each reduced installment and the amount returned to the shopper.
 */
export function allocateRefund(
  amountCents: number,
  installments: ReadonlyArray<{ id: string; installmentNumber: number; amountCents: number; paid: boolean }>,
): { reductions: Array<{ id: string; fromCents: number; toCents: number }>; returnedToShopperCents: number } {
  let remaining = amountCents;
  const reductions: Array<{ id: string; fromCents: number; toCents: number }> = [];
  const unpaidLastFirst = installments.filter((installment) => !installment.paid).sort((a, b) => b.installmentNumber - a.installmentNumber);
  for (const installment of unpaidLastFirst) {
    if (remaining === 0) break;
    const cut = Math.min(remaining, installment.amountCents);
    if (cut === 0) continue;
    reductions.push({ id: installment.id, fromCents: installment.amountCents, toCents: installment.amountCents - cut });
    remaining -= cut;
  }
  return { reductions, returnedToShopperCents: remaining };
}
