// Activities of the loan lifecycle workflow (contract: LoanLifecycleActivities in @tributary/workflows). Built by a
// factory with the loan domain injected, so the worker and the tests share one path: LoanLifecycleService.advance.
import { NotFoundError } from '@tributary/kit';
import type { AdvanceLoanResult, LoanLifecycleActivities } from '@tributary/workflows';
import type { LoanLifecycleService } from './loan-lifecycle.service.js';

export interface LoanActivitiesDeps {
  /** The loan domain (the worker runs each activity in its own ORM context). */
  lifecycle: LoanLifecycleService;
}

export function createLoanActivities(deps: LoanActivitiesDeps): LoanLifecycleActivities {
  return {
    async advanceLoan({ loanId, at }): Promise<AdvanceLoanResult> {
      const clock = new Date(at);
      if (Number.isNaN(clock.getTime())) throw new Error(`advanceLoan: bad clock ${at}`);
      try {
        const { status, nextAt, steps, testClockOffsetMs } = await deps.lifecycle.advance(loanId, clock);
        return { status, nextAt: nextAt?.toISOString() ?? null, steps, testClockOffsetMs };
      } catch (error) {
        // The loan is gone (its merchant was deleted): nothing will ever happen to it; retrying would not help.
        if (error instanceof NotFoundError) return { status: 'not_found', nextAt: null, steps: [], testClockOffsetMs: null };
        throw error;
      }
    },
  };
}
