// The loan status engine (spec "Sale (loan)": the nine statuses; the transitions are decided here, README "Loan
// lifecycle"): pure functions over a loan's state, no database, no clock of its own (callers pass the time). Every
// transition and every refusal is a unit test in test/loan-status-engine.test.ts.
// The README section draws the machine: approved → funded → active → paid_off; a missed installment → in_arrears
// (cured → active) → defaulted → written_off; cancelled only before funding.
import type { LoanStatus } from './loan-status.js';

/** The lifecycle events a transition emits (spec "Events"); loan.authorized is checkout's, at booking. */
export type LoanLifecycleEvent = 'loan.funded' | 'loan.completed' | 'installment.paid' | 'installment.missed';

/** What the engine reads and writes of a loan. */
export interface LoanState {
  status: LoanStatus;
  disbursedAt: Date | null;
  /** When the loan last went into arrears (the default deadline counts from it); null when not in arrears. */
  arrearsSince: Date | null;
  /** When the loan defaulted (the write-off deadline counts from it). */
  defaultedAt: Date | null;
}

export type LoanTrigger =
  /** The funds are released to the merchant's settlement account (the workflow's first step). */
  | { kind: 'fund'; at: Date }
  /** The loan is called off before any money moved. */
  | { kind: 'cancel' }
  /** An installment was paid (auto-debit or in-app); the counts are AFTER this payment. */
  | { kind: 'installment_paid'; unpaidLeft: number; missedUnpaidLeft: number }
  /** An installment's last auto-debit retry was declined. */
  | { kind: 'installment_missed'; at: Date }
  /** The loan stayed in arrears past the default deadline. */
  | { kind: 'default'; at: Date }
  /** The loan stayed defaulted past the write-off deadline. */
  | { kind: 'write_off' };

export type LoanTransition = { ok: true; state: LoanState; events: LoanLifecycleEvent[] } | { ok: false; status: LoanStatus; reason: string };

/** Statuses from which nothing more happens. */
export const CLOSED_LOAN_STATUSES: readonly LoanStatus[] = ['paid_off', 'written_off', 'cancelled'];
/** Statuses in which installments are auto-debited (a defaulted loan is with collections: in-app payment only). */
export const COLLECTING_LOAN_STATUSES: readonly LoanStatus[] = ['funded', 'active', 'in_arrears'];
/** Statuses in which an installment may be paid at all. */
export const PAYABLE_LOAN_STATUSES: readonly LoanStatus[] = [...COLLECTING_LOAN_STATUSES, 'defaulted'];
/** Statuses from which a loan may be cancelled: before funding. */
export const CANCELLABLE_LOAN_STATUSES: readonly LoanStatus[] = ['pending', 'approved'];

export const isClosedLoan = (status: LoanStatus): boolean => CLOSED_LOAN_STATUSES.includes(status);

const refuse = (status: LoanStatus, reason: string): LoanTransition => ({ ok: false, status, reason });
const move = (state: LoanState, change: Partial<LoanState>, events: LoanLifecycleEvent[]): LoanTransition => ({ ok: true, state: { ...state, ...change }, events });

export function applyLoanTrigger(state: LoanState, trigger: LoanTrigger): LoanTransition {
  switch (trigger.kind) {
    case 'fund':
      if (state.status !== 'approved') return refuse(state.status, 'only an approved loan is funded');
      return move(state, { status: 'funded', disbursedAt: trigger.at }, ['loan.funded']);
    case 'cancel':
      if (!CANCELLABLE_LOAN_STATUSES.includes(state.status)) return refuse(state.status, 'a loan can be cancelled only before it is funded');
      return move(state, { status: 'cancelled' }, []);
    case 'installment_paid':
      return applyPayment(state, trigger.unpaidLeft, trigger.missedUnpaidLeft);
    case 'installment_missed':
      if (!COLLECTING_LOAN_STATUSES.includes(state.status)) return refuse(state.status, 'installments are collected only on a funded, active or in-arrears loan');
      // Already in arrears: the default deadline keeps counting from the first missed installment.
      return move(state, { status: 'in_arrears', arrearsSince: state.arrearsSince ?? trigger.at }, ['installment.missed']);
    case 'default':
      if (state.status !== 'in_arrears') return refuse(state.status, 'only a loan in arrears defaults');
      return move(state, { status: 'defaulted', defaultedAt: trigger.at }, []);
    case 'write_off':
      if (state.status !== 'defaulted') return refuse(state.status, 'only a defaulted loan is written off');
      return move(state, { status: 'written_off' }, []);
  }
}

/** The last payment closes the loan; otherwise a missed installment still unpaid keeps it in arrears (or defaulted). */
function applyPayment(state: LoanState, unpaidLeft: number, missedUnpaidLeft: number): LoanTransition {
  if (!PAYABLE_LOAN_STATUSES.includes(state.status)) return refuse(state.status, 'installments are paid only on a funded, active, in-arrears or defaulted loan');
  if (!Number.isInteger(unpaidLeft) || !Number.isInteger(missedUnpaidLeft) || unpaidLeft < 0 || missedUnpaidLeft < 0 || missedUnpaidLeft > unpaidLeft) {
    return refuse(state.status, 'inconsistent installment counts');
  }
  if (unpaidLeft === 0) return move(state, { status: 'paid_off', arrearsSince: null }, ['installment.paid', 'loan.completed']);
  if (state.status === 'defaulted') return move(state, {}, ['installment.paid']);
  if (missedUnpaidLeft > 0) return move(state, { status: 'in_arrears' }, ['installment.paid']);
  return move(state, { status: 'active', arrearsSince: null }, ['installment.paid']);
}
