// The settlement's payout workflow start, as a workflow outbox entry enqueued in the transaction that cut the batch.
import type { WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, settlementWorkflowId, type SettlementPayoutWorkflowInput } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

export function settlementPayoutStart(settlement: { id: string; batch: string; netCents: number; currency: string }): WorkflowStartCommand {
  const input: SettlementPayoutWorkflowInput = { settlementId: settlement.id };
  return {
    workflowType: WORKFLOW_TYPES.settlementPayout,
    workflowId: settlementWorkflowId(settlement.id),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    summary: `Settlement ${settlement.batch}: net ${settlement.netCents} ${settlement.currency} (minor units)`,
    details: [`- settlement: ${settlement.id}`, `- batch: ${settlement.batch}`, `- net_cents: ${settlement.netCents} ${settlement.currency}`].join('\n'),
  };
}
