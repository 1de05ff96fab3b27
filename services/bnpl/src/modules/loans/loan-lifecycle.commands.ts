// The commands the loan domain gives the loan lifecycle workflow, as workflow outbox entries enqueued in the
// transaction that changed the loan: start it when checkout books the loan; wake it when an installment was paid in-app;
// move a test-mode loan's clock. A workflow never hears of a rolled-back change.
import { enqueueWorkflowStart, type OutboxEntryRef, type WorkflowSignalCommand, type WorkflowStartCommand } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LOAN_SIGNALS, TASK_QUEUES, WORKFLOW_TYPES, loanWorkflowId, type ClockAdvancedSignalArgs, type LoanLifecycleWorkflowInput } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';
import type { Loan } from './loan.entity.js';

/**
 * Start of the loan's lifecycle workflow, id `loan-<loan_number>`, on the bnpl task queue: once per loan. A test-mode
 * loan starts on its merchant's test clock (`testClockOffsetMs`, 0 when the clock was never advanced); a live loan on
 * the real clock.
 */
export function loanLifecycleStart(loan: Pick<Loan, 'id' | 'loanNumber' | 'livemode' | 'totalCents' | 'currency'>, testClockOffsetMs = 0): WorkflowStartCommand {
  const input: LoanLifecycleWorkflowInput = { loanId: loan.id, loanNumber: loan.loanNumber, testClockOffsetMs: loan.livemode ? null : testClockOffsetMs };
  return {
    workflowType: WORKFLOW_TYPES.loanLifecycle,
    workflowId: loanWorkflowId(loan.loanNumber),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    // What an operator sees in the Temporal UI: amount and mode, never the shopper's details.
    summary: `Loan ${loan.loanNumber}: ${loan.totalCents} ${loan.currency} (minor units), ${loan.livemode ? 'live' : 'test mode'}`,
    details: [`- loan: ${loan.id}`, `- total_cents: ${loan.totalCents} ${loan.currency}`, `- clock: ${loan.livemode ? 'real' : 'test clock'}`].join('\n'),
  };
}

/** Enqueues the start in `tx` (the booking transaction); the caller dispatches it after the commit. */
export function enqueueLoanLifecycle(tx: EntityManager, loan: Loan, testClockOffsetMs = 0): Promise<OutboxEntryRef> {
  return enqueueWorkflowStart(tx, loanLifecycleStart(loan, testClockOffsetMs));
}

/** Wakes the workflow after an in-app payment (it closes a paid-off loan at once). */
export function loanPaymentReceived(loanNumber: string): WorkflowSignalCommand {
  return { workflowId: loanWorkflowId(loanNumber), signal: LOAN_SIGNALS.paymentReceived };
}

/** Moves a test-mode loan's clock to `offsetMs` ahead of real time. */
export function loanClockAdvanced(loanNumber: string, offsetMs: number): WorkflowSignalCommand {
  const args: ClockAdvancedSignalArgs = { offsetMs };
  return { workflowId: loanWorkflowId(loanNumber), signal: LOAN_SIGNALS.clockAdvanced, args: [args] };
}
