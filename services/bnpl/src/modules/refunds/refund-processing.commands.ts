// The command the refund domain gives the refund processing workflow: its start, as a workflow outbox entry enqueued in
// the transaction that created the refund, so a rolled-back create starts nothing and a create committed while
// Temporal is down is processed once it is back.
import type { WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, refundWorkflowId, type RefundProcessingWorkflowInput } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

/** Start of the refund's processing workflow, id `refund-<id>`, on the bnpl task queue: once per refund. */
export function refundProcessingStart(refund: { id: string; amountCents: number; currency: string; loanNumber: string }): WorkflowStartCommand {
  const input: RefundProcessingWorkflowInput = { refundId: refund.id };
  return {
    workflowType: WORKFLOW_TYPES.refundProcessing,
    workflowId: refundWorkflowId(refund.id),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    // What an operator sees in the Temporal UI: the amount and the loan, never the shopper's details or the reason.
    summary: `Refund of ${refund.amountCents} ${refund.currency} (minor units) on loan ${refund.loanNumber}`,
    details: [`- refund: ${refund.id}`, `- loan: ${refund.loanNumber}`, `- amount_cents: ${refund.amountCents} ${refund.currency}`].join('\n'),
  };
}
