import { condition, defineSignal, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { LoanLifecycleActivities } from '../activities.js';
import { LOAN_SIGNALS, type ClockAdvancedSignalArgs } from '../constants.js';
import type { LoanLifecycleWorkflowInput, LoanLifecycleWorkflowResult } from '../types.js';

export const loanPaymentReceivedSignal = defineSignal(LOAN_SIGNALS.paymentReceived);
export const loanClockAdvancedSignal = defineSignal<[ClockAdvancedSignalArgs]>(LOAN_SIGNALS.clockAdvanced);

/**
 * One workflow per bnpl loan (id `loan-<loan_number>`) from authorization to closing. The domain (the activity) owns
 * the schedule: each call performs every step due on the loan's clock and answers when the next one falls due; the
 * workflow waits until then (a durable timer) and calls it again, until the loan is closed.
 *
 * The loan's clock is workflow time (Date.now() in a workflow is deterministic) plus, for a test-mode loan, its test
 * clock's offset, which only ever arrives as input or as the `clockAdvanced` signal: never a read of wall time. A
 * `paymentReceived` signal (an in-app payment) advances the loan at once, so a loan paid off early closes at once.
 */
export async function loanLifecycleWorkflow(input: LoanLifecycleWorkflowInput): Promise<LoanLifecycleWorkflowResult> {
  const { advanceLoan } = proxyActivities<LoanLifecycleActivities>({
    startToCloseTimeout: '2 minutes',
    // Only infrastructure errors (database down) throw; a declined debit is a recorded step, not an error.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  const isTestMode = input.testClockOffsetMs !== null;
  let offsetMs = input.testClockOffsetMs ?? 0;
  let woken = false;
  setHandler(loanPaymentReceivedSignal, () => {
    woken = true;
  });
  /** A live loan always runs on the real clock; a test clock only moves forward. */
  const moveClock = (to: number | null | undefined) => {
    if (!isTestMode || typeof to !== 'number' || !(to > offsetMs)) return;
    offsetMs = to;
    woken = true;
  };
  setHandler(loanClockAdvancedSignal, (args) => moveClock(args?.offsetMs));
  const now = () => Date.now() + offsetMs;

  for (let advances = 1; ; advances++) {
    // Reset before the call: a signal that arrives while the activity runs wakes the next wait at once.
    woken = false;
    const result = await advanceLoan({ loanId: input.loanId, loanNumber: input.loanNumber, at: new Date(now()).toISOString() });
    if (result.steps.length > 0) log.info('loan advanced', { loanNumber: input.loanNumber, steps: result.steps, status: result.status });
    if (result.nextAt === null) return { status: result.status, advances };
    // The stored clock is ahead of ours (a clockAdvanced signal was lost): move to it and advance again at once.
    moveClock(result.testClockOffsetMs);
    const dueMs = Date.parse(result.nextAt);
    // Each wait is a durable timer to the next step on the loan's clock, cut short by a signal.
    while (!woken && now() < dueMs) await condition(() => woken, dueMs - now());
  }
}
