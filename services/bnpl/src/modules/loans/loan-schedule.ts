// The lifecycle's clock rules (README "Loan lifecycle"), defined once: when an installment is debited and retried,
// and how long a loan may stay in arrears or defaulted. Pure: every time is computed from stored facts.
import { COLLECTING_LOAN_STATUSES } from './loan-status-engine.js';
import type { LoanStatus } from './loan-status.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Auto-debit attempts of one installment, in days after its due date (00:00 UTC): at once, then retries 1, 3 and 7
 * days past due. When the 4th attempt is declined the installment is missed (installment.missed).
 */
export const COLLECTION_ATTEMPT_DAYS = [0, 1, 3, 7] as const;
export const COLLECTION_ATTEMPTS = COLLECTION_ATTEMPT_DAYS.length;

/** A loan still in arrears this many days after its first missed installment defaults. */
export const DEFAULT_AFTER_DAYS = 60;
/** A defaulted loan is written off this many days after it defaulted. */
export const WRITE_OFF_AFTER_DAYS = 90;

/** The instant an installment falls due: 00:00 UTC of its due_date. */
export function dueInstant(dueDate: string): Date {
  return new Date(`${dueDate}T00:00:00.000Z`);
}

/** When auto-debit attempt `attemptNumber` (1-based) of an installment is made; null past the last attempt. */
export function attemptInstant(dueDate: string, attemptNumber: number): Date | null {
  const days = COLLECTION_ATTEMPT_DAYS[attemptNumber - 1];
  return days === undefined ? null : new Date(dueInstant(dueDate).getTime() + days * DAY_MS);
}

export function defaultInstant(arrearsSince: Date): Date {
  return new Date(arrearsSince.getTime() + DEFAULT_AFTER_DAYS * DAY_MS);
}

export function writeOffInstant(defaultedAt: Date): Date {
  return new Date(defaultedAt.getTime() + WRITE_OFF_AFTER_DAYS * DAY_MS);
}

/** What the schedule reads of an installment. */
export interface ScheduledCollection {
  id: string;
  dueDate: string;
  status: 'pending' | 'paid' | 'missed';
  attemptCount: number;
}

/** What the schedule reads of a loan. */
export interface ScheduledLoan {
  status: LoanStatus;
  /** No installment is debited before the loan is funded (a down payment due at checkout is taken right after). */
  disbursedAt?: Date | null | undefined;
  arrearsSince?: Date | null | undefined;
  defaultedAt?: Date | null | undefined;
}

/**
 * The next lifecycle step of a loan and when it falls due (`at` null: at once), or null when nothing will ever happen
 * again (closed, cancelled, or pending a decision this service does not make). Steps at the same instant: the
 * installments first, in number order, then default or write-off.
 */
export type LoanStep =
  | { kind: 'fund'; at: null }
  | { kind: 'attempt'; installmentId: string; attemptNumber: number; at: Date }
  | { kind: 'default'; at: Date }
  | { kind: 'write_off'; at: Date };

export function nextLoanStep(loan: ScheduledLoan, installments: readonly ScheduledCollection[]): LoanStep | null {
  if (loan.status === 'approved') return { kind: 'fund', at: null };
  const candidates: Array<Exclude<LoanStep, { kind: 'fund' }>> = [];
  if (COLLECTING_LOAN_STATUSES.includes(loan.status)) {
    for (const installment of installments) {
      if (installment.status !== 'pending') continue;
      const attemptNumber = installment.attemptCount + 1;
      // Past the last scheduled attempt while still pending (in-app attempts used them up): one last one at once.
      const scheduled = attemptInstant(installment.dueDate, attemptNumber) ?? attemptInstant(installment.dueDate, COLLECTION_ATTEMPTS)!;
      const at = loan.disbursedAt && loan.disbursedAt.getTime() > scheduled.getTime() ? loan.disbursedAt : scheduled;
      candidates.push({ kind: 'attempt', installmentId: installment.id, attemptNumber, at });
    }
  }
  if (loan.status === 'in_arrears' && loan.arrearsSince) candidates.push({ kind: 'default', at: defaultInstant(loan.arrearsSince) });
  if (loan.status === 'defaulted' && loan.defaultedAt) candidates.push({ kind: 'write_off', at: writeOffInstant(loan.defaultedAt) });
  let first: Exclude<LoanStep, { kind: 'fund' }> | null = null;
  for (const step of candidates) if (first === null || step.at.getTime() < first.at.getTime()) first = step;
  return first;
}
