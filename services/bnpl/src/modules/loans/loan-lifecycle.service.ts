// The loan's money lifecycle (README "Loan lifecycle"): funding, auto-debit of installments with retries, missed
// installments, default and write-off, driven by the loan workflow's clock (advance), and the in-app payment of an
// installment (payInstallment). Each step is one transaction under the loan's row lock: the status change (through the
// pure status engine) and its webhook events commit together, and a step is read from the stored loan, so a retried
// activity repeats nothing.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BusinessRuleError,
  NotFoundError,
  afterCommitAll,
  enqueueWorkflowSignal,
  transactionWithAfterCommit,
  type AfterCommit,
  type Committed,
  type WorkflowOutbox,
  isUuid,
} from '@tributary/kit';
import { Installment } from './installment.entity.js';
import { loanPaymentReceived } from './loan-lifecycle.commands.js';
import { LOAN_NUMBER_PATTERN } from './loan-number.js';
import { COLLECTION_ATTEMPTS, nextLoanStep, type LoanStep } from './loan-schedule.js';
import { PAYABLE_LOAN_STATUSES, applyLoanTrigger, type LoanLifecycleEvent, type LoanTrigger } from './loan-status-engine.js';
import type { LoanStatus } from './loan-status.js';
import { Loan } from './loan.entity.js';
import { noLoanEvents, type LoanLifecycleEventSink } from './loan.events.js';
import { simulatedPaymentProcessor, type PaymentProcessor } from './payment-processor.js';
import { loanClockNow, testClockOffsetMs } from './test-clock.service.js';

/** Steps one advance performs at most (a loan has at most 12 installments × 4 attempts + default + write-off). */
const MAX_STEPS_PER_ADVANCE = 100;

export interface LoanLifecycleServiceOptions {
  /** Where loan.funded, loan.completed, installment.paid and installment.missed go (the webhooks module's sink). */
  events?: LoanLifecycleEventSink;
  /** Debits installments; the simulated processor by default. */
  processor?: PaymentProcessor;
  /** Dispatches what a step queued (webhook deliveries, the workflow's signal) right after its commit. */
  outbox?: WorkflowOutbox;
  /** The real clock of in-app payments (tests). */
  now?: () => Date;
}

export interface LoanAdvance {
  status: LoanStatus;
  /** A test-mode loan's test clock offset as stored now (ms; null for a live loan): the workflow catches up with it. */
  testClockOffsetMs: number | null;
  /** When the next step falls due; null when nothing will ever happen again. */
  nextAt: Date | null;
  /** What this advance did, in order. */
  steps: string[];
}

type StepOutcome = { done: true; loan: Loan; nextAt: Date | null } | { done: false; step: string };

export class LoanLifecycleService {
  private readonly events: LoanLifecycleEventSink;
  private readonly processor: PaymentProcessor;
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: LoanLifecycleServiceOptions = {},
  ) {
    this.events = options.events ?? noLoanEvents;
    this.processor = options.processor ?? simulatedPaymentProcessor;
    this.outbox = options.outbox;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Performs, in time order, every step of the loan due at `at` (the loan's clock), each in its own transaction, and
   * answers when the next one falls due. Unknown loan: NotFoundError.
   */
  async advance(loanId: string, at: Date): Promise<LoanAdvance> {
    const steps: string[] = [];
    for (let count = 0; count < MAX_STEPS_PER_ADVANCE; count++) {
      const outcome = await transactionWithAfterCommit(this.em, (tx) => this.stepDue(tx, loanId, at));
      if (outcome.done) {
        const { loan } = outcome;
        const offsetMs = loan.livemode ? null : await testClockOffsetMs(this.em, loan.merchant.id);
        return { status: loan.status, testClockOffsetMs: offsetMs, nextAt: outcome.nextAt, steps };
      }
      steps.push(outcome.step);
    }
    throw new Error(`loan ${loanId}: more than ${MAX_STEPS_PER_ADVANCE} lifecycle steps due at once`);
  }

  /**
   * The in-app payment of one unpaid installment (pending or missed) with the loan's payment method, now on the loan's
   * clock (its merchant's test clock for a test-mode loan): installment.paid, the status change and the workflow's paymentReceived signal commit
   * together. Refused (422, nothing stored): already paid, a loan that takes no payment, a declined debit.
   */
  async payInstallment(loanIdOrNumber: string, installmentNumber: number): Promise<{ loan: Loan; installment: Installment }> {
    return transactionWithAfterCommit(this.em, async (tx) => {
      const { loan, installments } = await this.lockLoan(tx, loanIdOrNumber);
      const installment = installments.find((i) => i.installmentNumber === installmentNumber);
      if (!installment) throw new NotFoundError(`Loan ${loan.loanNumber} has no installment ${installmentNumber}.`);
      if (installment.status === 'paid') throw new BusinessRuleError(`Installment ${installmentNumber} of loan ${loan.loanNumber} is already paid.`, undefined, { code: 'installment_paid' });
      if (!PAYABLE_LOAN_STATUSES.includes(loan.status)) throw new BusinessRuleError(`Loan ${loan.loanNumber} is ${loan.status}; it takes no payment.`, undefined, { code: 'loan_not_payable' });
      // Each in-app payment is a new charge (a shopper retrying after a decline must not get the cached decline).
      const result = await this.debit(loan, installment, `${installment.id}:in-app:${crypto.randomUUID()}`);
      if (result.outcome === 'declined') throw new BusinessRuleError(`The payment was declined (${result.declineCode}).`, undefined, { code: 'payment_declined' });
      const events = await this.markPaid(tx, loan, installments, installment, await loanClockNow(tx, loan, this.now()));
      const signal = await enqueueWorkflowSignal(tx, loanPaymentReceived(loan.loanNumber));
      return { result: { loan, installment }, afterCommit: afterCommitAll(events, this.outbox?.dispatchAfterCommit([signal])) };
    });
  }

  /**
   * Cancels a loan before it is funded (the operator's `loan cancel`; e.g. while Temporal was down and the workflow had
   * not funded it yet). No event: loan.cancelled is reserved. Refused (422) once funded: that is a refund.
   */
  async cancel(loanIdOrNumber: string): Promise<Loan> {
    return this.em.transactional(async (tx) => {
      const { loan } = await this.lockLoan(tx, loanIdOrNumber);
      const change = applyLoanTrigger(loan.toState(), { kind: 'cancel' });
      if (!change.ok) throw new BusinessRuleError(`Loan ${loan.loanNumber} is ${loan.status}; only a loan not yet funded can be cancelled.`, undefined, { code: 'loan_not_cancellable' });
      loan.applyState(change.state);
      return loan;
    });
  }

  /** One transaction of advance: the next step, performed when due at `at`, else the answer. */
  private async stepDue(tx: EntityManager, loanId: string, at: Date): Promise<Committed<StepOutcome>> {
    const { loan, installments } = await this.lockLoan(tx, loanId);
    const step = nextLoanStep(loan, installments);
    if (step === null) return { result: { done: true, loan, nextAt: null } };
    if (step.at !== null && step.at.getTime() > at.getTime()) return { result: { done: true, loan, nextAt: step.at } };
    const { description, afterCommit } = await this.perform(tx, loan, installments, step, at);
    return { result: { done: false, step: description }, afterCommit };
  }

  private async perform(tx: EntityManager, loan: Loan, installments: Installment[], step: LoanStep, at: Date): Promise<{ description: string; afterCommit: AfterCommit | undefined }> {
    switch (step.kind) {
      case 'fund':
        return { description: 'funded', afterCommit: await this.transition(tx, loan, { kind: 'fund', at }) };
      case 'default':
        return { description: 'defaulted', afterCommit: await this.transition(tx, loan, { kind: 'default', at: step.at }) };
      case 'write_off':
        return { description: 'written_off', afterCommit: await this.transition(tx, loan, { kind: 'write_off' }) };
      case 'attempt':
        return this.attempt(tx, loan, installments, installments.find((i) => i.id === step.installmentId)!, step.at);
    }
  }

  /** One auto-debit attempt at its scheduled time: paid, declined (retried later), or declined for the last time: missed. */
  private async attempt(tx: EntityManager, loan: Loan, installments: Installment[], installment: Installment, at: Date) {
    // A refund cut this installment to nothing: it is settled at its due date without asking the processor for 0.
    if (installment.amountCents === 0) return { description: `installment ${installment.installmentNumber} settled by refunds`, afterCommit: await this.markPaid(tx, loan, installments, installment, at) };
    const result = await this.debit(loan, installment);
    const name = `installment ${installment.installmentNumber}`;
    if (result.outcome === 'succeeded') return { description: `${name} paid`, afterCommit: await this.markPaid(tx, loan, installments, installment, at) };
    installment.attemptCount += 1;
    installment.lastAttemptAt = at;
    installment.lastDeclineCode = result.declineCode;
    if (installment.attemptCount < COLLECTION_ATTEMPTS) return { description: `${name} declined (attempt ${installment.attemptCount})`, afterCommit: undefined };
    installment.status = 'missed';
    return { description: `${name} missed`, afterCommit: await this.transition(tx, loan, { kind: 'installment_missed', at }, installment) };
  }

  /**
   * The debit runs inside the step's transaction, under the loan's row lock. An auto-debit's key is
   * `<installment id>:<attempt>`: if the step rolls back after a real processor charged, the retried step repeats the
   * key and gets the same outcome instead of a second charge.
   */
  private debit(loan: Loan, installment: Installment, idempotencyKey?: string) {
    const attemptNumber = installment.attemptCount + 1;
    return this.processor.debit({
      paymentMethod: loan.paymentMethod,
      amountCents: installment.amountCents,
      currency: loan.currency,
      attemptNumber,
      idempotencyKey: idempotencyKey ?? `${installment.id}:${attemptNumber}`,
    });
  }

  private async markPaid(tx: EntityManager, loan: Loan, installments: Installment[], installment: Installment, at: Date): Promise<AfterCommit | undefined> {
    installment.attemptCount += 1;
    installment.lastAttemptAt = at;
    installment.status = 'paid';
    installment.paidAt = at;
    const unpaid = installments.filter((i) => i.status !== 'paid');
    const trigger: LoanTrigger = { kind: 'installment_paid', unpaidLeft: unpaid.length, missedUnpaidLeft: unpaid.filter((i) => i.status === 'missed').length };
    return this.transition(tx, loan, trigger, installment);
  }

  /** Applies a trigger the step has established is due (a refusal here is a bug) and queues its events in `tx`. */
  private async transition(tx: EntityManager, loan: Loan, trigger: LoanTrigger, installment?: Installment): Promise<AfterCommit | undefined> {
    const change = applyLoanTrigger(loan.toState(), trigger);
    if (!change.ok) throw new Error(`loan ${loan.loanNumber}: ${trigger.kind} refused in ${change.status} (${change.reason})`);
    loan.applyState(change.state);
    await tx.flush();
    const dispatches: Array<AfterCommit | undefined> = [];
    for (const event of change.events) dispatches.push(await this.emit(tx, loan, event, installment));
    return afterCommitAll(...dispatches);
  }

  private emit(tx: EntityManager, loan: Loan, event: LoanLifecycleEvent, installment: Installment | undefined): Promise<AfterCommit | undefined> {
    if (event === 'loan.funded' || event === 'loan.completed') return this.events.emit(tx, loan, event);
    if (!installment) throw new Error(`${event} without its installment`);
    return this.events.emitInstallment(tx, loan, installment, event);
  }

  /** The loan by id or loan number, row-locked, with its installments in number order; NotFoundError when unknown. */
  private async lockLoan(tx: EntityManager, loanIdOrNumber: string): Promise<{ loan: Loan; installments: Installment[] }> {
    const where = isUuid(loanIdOrNumber) ? { id: loanIdOrNumber } : LOAN_NUMBER_PATTERN.test(loanIdOrNumber) ? { loanNumber: loanIdOrNumber } : null;
    const loan = where ? await tx.findOne(Loan, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    if (!loan) throw new NotFoundError(`No loan ${loanIdOrNumber.slice(0, 40)}.`);
    const installments = await tx.find(Installment, { loan: loan.id }, { orderBy: { installmentNumber: 'asc' }, refresh: true });
    return { loan, installments };
  }
}
