// Test clocks (README "Test clocks"), in the spirit of Stripe's: a merchant advances its test clock and every test-mode
// loan of the merchant behaves as if that much time had passed (installments collected or missed, events sent). The
// clock is an offset over real time, stored per merchant; the loan workflows never read it from the wall: it reaches
// them as their start input and as the `clockAdvanced` signal this service queues (outbox) in the transaction that
// moves the clock, one per open test-mode loan. Live loans are never touched.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, enqueueWorkflowSignal, enqueueWorkflowStart, transactionWithAfterCommit, type WorkflowOutbox, type WorkflowStartCommand, isUuid } from '@tributary/kit';
import { loanClockAdvanced } from './loan-lifecycle.commands.js';
import { CLOSED_LOAN_STATUSES } from './loan-status-engine.js';
import { Merchant } from '../merchants/index.js';
import { Loan } from './loan.entity.js';
import { TEST_CLOCK_DURATION_MESSAGE, TEST_CLOCK_MAX_OFFSET_SECONDS, parseTestClockDuration } from './test-clock-duration.js';
import { TestClock } from './test-clock.entity.js';

const SECOND_MS = 1_000;

/** A test clock as read: its offset over real time and its time now. */
export interface TestClockReading {
  merchantId: string;
  offsetSeconds: number;
  now: Date;
}

export interface TestClockAdvance extends TestClockReading {
  /** Open test-mode loans whose workflow was told the new time. */
  loansSignalled: number;
}

/** How far the merchant's test clock is ahead of real time, in ms (0 without a clock). */
export async function testClockOffsetMs(em: EntityManager, merchantId: string): Promise<number> {
  const clock = await em.findOne(TestClock, { merchant: merchantId }, { refresh: true });
  return (clock?.offsetSeconds ?? 0) * SECOND_MS;
}

/** The clock of one loan now: real time for a live loan, its merchant's test clock for a test-mode one. */
export async function loanClockNow(em: EntityManager, loan: Pick<Loan, 'livemode' | 'merchant'>, realNow: Date): Promise<Date> {
  if (loan.livemode) return realNow;
  return new Date(realNow.getTime() + (await testClockOffsetMs(em, loan.merchant.id)));
}

export interface TestClockServiceOptions {
  /** Dispatches the clockAdvanced signals right after the commit (the worker's sweeper otherwise). */
  outbox?: WorkflowOutbox | undefined;
  /** Real time (tests). */
  now?: () => Date;
  /**
   * Other workflows an advance starts, committed with it (the composition root passes the settlements module's
   * testClockSettlementsStart: the test-mode batches of the periods the clock passed).
   */
  advanceStarts?: (advance: { merchantId: string; from: Date; to: Date }) => WorkflowStartCommand[];
}

export class TestClockService {
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly now: () => Date;
  private readonly advanceStarts: NonNullable<TestClockServiceOptions['advanceStarts']>;

  constructor(
    private readonly em: EntityManager,
    options: TestClockServiceOptions = {},
  ) {
    this.outbox = options.outbox;
    this.now = options.now ?? (() => new Date());
    this.advanceStarts = options.advanceStarts ?? (() => []);
  }

  async read(merchantId: string): Promise<TestClockReading> {
    const offsetMs = await testClockOffsetMs(this.em, merchantId);
    return { merchantId, offsetSeconds: offsetMs / SECOND_MS, now: new Date(this.now().getTime() + offsetMs) };
  }

  /**
   * Moves the merchant's test clock ahead by `by` (`14d`, `36h`, `90m`; else 422 on `by`, nothing changed) and, in the
   * same transaction, queues the new time for every open test-mode loan's workflow. At most ten years ahead in all.
   */
  async advance(merchantId: string, by: string): Promise<TestClockAdvance> {
    const seconds = parseTestClockDuration(by);
    if (seconds === null) throw new ValidationError({ by: [TEST_CLOCK_DURATION_MESSAGE] });
    return transactionWithAfterCommit(this.em, async (tx) => {
      const clock = await this.lockClock(tx, merchantId);
      const realNow = this.now().getTime();
      const from = new Date(realNow + clock.offsetSeconds * SECOND_MS);
      const offsetSeconds = clock.offsetSeconds + seconds;
      if (offsetSeconds > TEST_CLOCK_MAX_OFFSET_SECONDS) throw new ValidationError({ by: [`A test clock may be at most ${TEST_CLOCK_MAX_OFFSET_SECONDS / 86_400} days ahead of real time; it is ${clock.offsetSeconds / 86_400} days ahead.`] });
      clock.offsetSeconds = offsetSeconds;
      await tx.flush();
      const loans = await tx.find(Loan, { merchant: merchantId, livemode: false, status: { $nin: [...CLOSED_LOAN_STATUSES] } }, { fields: ['loanNumber'] });
      const commands = [];
      for (const loan of loans) commands.push(await enqueueWorkflowSignal(tx, loanClockAdvanced(loan.loanNumber, offsetSeconds * SECOND_MS)));
      const to = new Date(realNow + offsetSeconds * SECOND_MS);
      for (const start of this.advanceStarts({ merchantId, from, to })) commands.push(await enqueueWorkflowStart(tx, start));
      const result: TestClockAdvance = { merchantId, offsetSeconds, now: to, loansSignalled: loans.length };
      return { result, afterCommit: commands.length > 0 ? this.outbox?.dispatchAfterCommit(commands) : undefined };
    });
  }

  /** The merchant's clock row, created at offset 0 when missing, locked (two advances add up, neither is lost). */
  private async lockClock(tx: EntityManager, merchantId: string): Promise<TestClock> {
    const merchant = isUuid(merchantId) ? await tx.findOne(Merchant, { id: merchantId }) : null;
    if (!merchant) throw new NotFoundError(`No merchant with id ${merchantId.slice(0, 40)}.`);
    await tx
      .getConnection()
      .execute(
        `insert into "test_clocks" ("id", "merchant_id", "offset_seconds", "updated_at") values (?, ?, 0, now()) on conflict ("merchant_id") do nothing`,
        [crypto.randomUUID(), merchantId],
        'run',
        tx.getTransactionContext(),
      );
    return tx.findOneOrFail(TestClock, { merchant: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }
}
