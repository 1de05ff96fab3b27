// The loan's webhook events and their data (spec "Events": loan.authorized, loan.funded and loan.completed carry the
// same keys). The loans module names what happened; the webhooks module implements LoanEventSink and turns each event
// into one delivery per subscribed active endpoint, queued in the transaction that changed the loan.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { Installment } from './installment.entity.js';
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

export const INSTALLMENT_EVENTS = ['installment.paid', 'installment.missed'] as const;
export type InstallmentEventName = (typeof INSTALLMENT_EVENTS)[number];

/** installment.paid's `data`: exactly the spec's keys. */
export interface InstallmentPaidData {
  loan_id: string;
  loan_number: string;
  installment_id: string;
  installment_number: number;
  amount_cents: number;
  paid_at: string | null;
}

/** installment.missed's `data`: exactly the spec's keys. */
export interface InstallmentMissedData {
  loan_id: string;
  loan_number: string;
  installment_id: string;
  installment_number: number;
  due_date: string;
}

export function installmentEventData(loan: Loan, installment: Installment, event: InstallmentEventName): InstallmentPaidData | InstallmentMissedData {
  const common = { loan_id: loan.id, loan_number: loan.loanNumber, installment_id: installment.id, installment_number: installment.installmentNumber };
  if (event === 'installment.missed') return { ...common, due_date: installment.dueDate };
  return { ...common, amount_cents: installment.amountCents, paid_at: installment.paidAt ? installment.paidAt.toISOString() : null };
}

/** Where loan events go: called inside the transaction that changed the loan; returns the after-commit dispatch. */
export interface LoanEventSink {
  emit(tx: EntityManager, loan: Loan, event: LoanEventName): Promise<AfterCommit | undefined>;
}

/** The lifecycle's sink: loan events and installment events, each in the transaction that changed the loan. */
export interface LoanLifecycleEventSink extends LoanEventSink {
  emitInstallment(tx: EntityManager, loan: Loan, installment: Installment, event: InstallmentEventName): Promise<AfterCommit | undefined>;
}

export const noLoanEvents: LoanLifecycleEventSink = { emit: async () => undefined, emitInstallment: async () => undefined };
