// A loan's workflow as Temporal sees it, for the dashboard (GraphQL BnplLoan.workflow): its status, when its next
// durable timer fires and the last failure of a pending activity, so "why is this loan in arrears" is answered without
// opening the Temporal UI. Read on demand from Temporal (describe + history); Temporal down reads as UNAVAILABLE, never
// as an error of the loan.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time.js';
import { loanWorkflowId } from '@tributary/workflows';

export interface LoanWorkflowView {
  workflowId: string;
  /** Temporal's execution status (RUNNING, COMPLETED, FAILED, TERMINATED, …), NOT_FOUND, or UNAVAILABLE. */
  status: string;
  /** When the workflow's pending durable timer fires (ISO 8601), null when none is pending. */
  nextTimerAt: string | null;
  /** The last failure of an activity still being retried, null when none. */
  lastFailure: string | null;
}

/** Reads loan workflows through the service's Temporal client (the outbox's). */
export class LoanWorkflowViewer {
  constructor(
    private readonly client: Client,
    private readonly rpcTimeoutMs = 3_000,
  ) {}

  async view(loanNumber: string): Promise<LoanWorkflowView> {
    const workflowId = loanWorkflowId(loanNumber);
    try {
      return await this.client.withDeadline(Date.now() + this.rpcTimeoutMs, async () => {
        const handle = this.client.workflow.getHandle(workflowId);
        const description = await handle.describe();
        const pending = description.raw.pendingActivities ?? [];
        const lastFailure = pending.map((activity) => activity.lastFailure?.message).find((message) => !!message) ?? null;
        return { workflowId, status: description.status.name, nextTimerAt: await this.nextTimerAt(handle), lastFailure };
      });
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return { workflowId, status: 'NOT_FOUND', nextTimerAt: null, lastFailure: null };
      return { workflowId, status: 'UNAVAILABLE', nextTimerAt: null, lastFailure: null };
    }
  }

  /** The fire time of the timer started and neither fired nor cancelled yet, from the history. */
  private async nextTimerAt(handle: ReturnType<Client['workflow']['getHandle']>): Promise<string | null> {
    const events = (await handle.fetchHistory()).events ?? [];
    const open = new Map<string, number>();
    for (const event of events) {
      const started = event.timerStartedEventAttributes;
      if (started?.timerId) open.set(started.timerId, tsToMs(event.eventTime) + tsToMs(started.startToFireTimeout));
      const ended = event.timerFiredEventAttributes?.timerId ?? event.timerCanceledEventAttributes?.timerId;
      if (ended) open.delete(ended);
    }
    const next = [...open.values()].sort((a, b) => a - b)[0];
    return next === undefined ? null : new Date(next).toISOString();
  }
}
