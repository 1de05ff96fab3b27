// Booking a loan at checkout: the Loan and its Installments from the chosen plan's schedule, inside the caller's
// transaction (the one that authorizes the session). The schedule is the foundation's installmentSchedule, the same
// function the checkout page showed the shopper, so the stored installments are the ones shown and add up exactly.
import type { EntityManager } from '@mikro-orm/postgresql';
import { installmentSchedule, type InstallmentPlan } from '../plans/index.js';
import type { WidgetSession } from '../widget-sessions/index.js';
import { Installment } from './installment.entity.js';
import { generateLoanNumber } from './loan-number.js';
import { BOOKED_LOAN_STATUS } from './loan-status.js';
import { Loan } from './loan.entity.js';
import { paymentMethodFor } from './payment-processor.js';

/** Attempts at a loan number that is not taken yet (50 random bits: a second attempt is already very unlikely). */
const LOAN_NUMBER_ATTEMPTS = 5;

export interface LoanBooking {
  session: WidgetSession;
  plan: InstallmentPlan;
  /** The shopper as entered at checkout. */
  customer: { email: string; phone: string | null };
  bookedAt: Date;
}

/**
 * Creates and flushes the loan of a confirmed checkout: principal = the session's amount, fee and total and
 * installments from the plan's schedule (no fee in test mode), purchase_reference = order_reference, livemode from the session, status
 * BOOKED_LOAN_STATUS, not disbursed, the payment method checkout records (paymentMethodFor). Must run in the transaction that holds the session's row lock.
 */
export async function bookLoan(tx: EntityManager, { session, plan, customer, bookedAt }: LoanBooking): Promise<Loan> {
  if (!tx.isInTransaction()) throw new Error('bookLoan must run inside the transaction that authorizes the session');
  const schedule = installmentSchedule(plan, session.amountCents, bookedAt, session.livemode);
  const loan = tx.create(Loan, {
    loanNumber: await unusedLoanNumber(tx),
    merchant: session.merchant,
    session,
    livemode: session.livemode,
    status: BOOKED_LOAN_STATUS,
    planId: plan.id,
    principalCents: schedule.principalCents,
    feeCents: schedule.feeCents,
    totalCents: schedule.totalCents,
    currency: session.currency,
    purchaseReference: session.orderReference,
    customerEmail: customer.email,
    customerPhone: customer.phone,
    disbursedAt: null,
    paymentMethod: paymentMethodFor(customer.email, session.livemode),
    arrearsSince: null,
    defaultedAt: null,
    createdAt: bookedAt,
    updatedAt: bookedAt,
  });
  for (const installment of schedule.installments) {
    loan.installments.add(
      tx.create(Installment, { loan, installmentNumber: installment.installmentNumber, amountCents: installment.amountCents, dueDate: installment.dueDate, paidAt: null, status: 'pending', attemptCount: 0 }),
    );
  }
  await tx.flush();
  return loan;
}

/**
 * A loan number no stored loan has. The unique column stays the guard against two transactions drawing the same
 * number at the same instant (a 2^-50 event; that confirm fails and the shopper's retry books with a new number).
 */
async function unusedLoanNumber(tx: EntityManager): Promise<string> {
  for (let attempt = 0; attempt < LOAN_NUMBER_ATTEMPTS; attempt += 1) {
    const candidate = generateLoanNumber();
    if ((await tx.count(Loan, { loanNumber: candidate })) === 0) return candidate;
  }
  throw new Error(`no unused loan number after ${LOAN_NUMBER_ATTEMPTS} attempts`);
}

/** The loan booked for a session (with its installments in order), or null before checkout completed. */
export async function findLoanOfSession(em: EntityManager, sessionId: string): Promise<Loan | null> {
  return em.findOne(Loan, { session: sessionId }, { populate: ['installments'] });
}
