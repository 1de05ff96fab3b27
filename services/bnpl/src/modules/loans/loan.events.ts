// The loan's webhook events and their data (spec "Events": loan.authorized, loan.funded and loan.completed carry the
// same keys). The loans module names what happened; the webhooks module implements LoanEventSink and turns each event
// into one delivery per subscribed active endpoint, queued in the transaction that changed the loan.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { Loan } from './loan.entity.js';

export const LOAN_EVENTS = ['loan.authorized', 'loan.funded', 'loan.completed'] as const;
export type LoanEventName = (typeof LOAN_EVENTS)[number];

/** The `data` of every loan event: exactly the spec's keys. */
export interface LoanEventData {
  loan_id: string;
  loan_number: string;
  merchant_id: string;
  principal_cents: number;
  total_cents: number;
  currency: string;
  status: string;
  purchase_reference: string;
  disbursed_at: string | null;
}

export function loanEventData(loan: Loan): LoanEventData {
  return {
    loan_id: loan.id,
    loan_number: loan.loanNumber,
    merchant_id: loan.merchant.id,
    principal_cents: loan.principalCents,
    total_cents: loan.totalCents,
    currency: loan.currency,
    status: loan.status,
    purchase_reference: loan.purchaseReference,
    disbursed_at: loan.disbursedAt ? loan.disbursedAt.toISOString() : null,
  };
}

/** Where loan events go: called inside the transaction that changed the loan; returns the after-commit dispatch. */
export interface LoanEventSink {
  emit(tx: EntityManager, loan: Loan, event: LoanEventName): Promise<AfterCommit | undefined>;
}

export const noLoanEvents: LoanEventSink = { emit: async () => undefined };
