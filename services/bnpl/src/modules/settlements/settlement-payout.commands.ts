// Settlement workflow starts, as workflow outbox entries enqueued in the transaction that caused them: a batch's payout
// (in the cut's transaction) and the cuts a test clock advance owes (in the advance's transaction).
import type { WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, settlementWorkflowId, testClockSettlementsWorkflowId, type SettlementPayoutWorkflowInput, type TestClockSettlementsWorkflowInput } from '@tributary/workflows';
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

/** What a test clock advance owes the merchant's test-mode settlements: the periods from `from` to `to`. */
export function testClockSettlementsStart(advance: { merchantId: string; from: Date; to: Date }): WorkflowStartCommand {
  const input: TestClockSettlementsWorkflowInput = { merchantId: advance.merchantId, from: advance.from.toISOString(), to: advance.to.toISOString() };
  return {
    workflowType: WORKFLOW_TYPES.testClockSettlements,
    workflowId: testClockSettlementsWorkflowId(advance.merchantId, advance.to.getTime()),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    summary: `Test-mode settlements of merchant ${advance.merchantId}: test clock ${input.from} → ${input.to}`,
  };
}
