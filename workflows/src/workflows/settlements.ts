import { proxyActivities } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities.js';
import type { SettlementCycleWorkflowInput, SettlementCycleWorkflowResult, SettlementPayoutWorkflowInput } from '../types.js';

const activityOptions = {
  startToCloseTimeout: '1 minute',
  // Only infrastructure errors (database down) throw; every step is idempotent, so a retry is safe.
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
} as const;

/**
 * One run per Schedule fire (`settlement-cycle-<cadence>`): cuts the batches of every merchant on that cadence for the
 * period that just closed. The cut's moment is the workflow's own clock (the fire time; deterministic on replay).
 * Each batch's payout runs in its own workflow, `settlement-<id>`, queued by the cut.
 */
export async function settlementCycleWorkflow(input: SettlementCycleWorkflowInput): Promise<SettlementCycleWorkflowResult> {
  const { merchantsOnCadence, cutSettlements } = proxyActivities<SettlementActivities>(activityOptions);
  const at = new Date(Date.now()).toISOString();
  const merchants = await merchantsOnCadence({ cadence: input.cadence });
  const settlementIds: string[] = [];
  for (const merchantId of merchants) settlementIds.push(...(await cutSettlements({ merchantId, at })).settlementIds);
  return { merchants: merchants.length, settlementIds };
}

/** One workflow per settlement batch (`settlement-<id>`): the payout, then settlement.processed (one transaction). */
export async function settlementPayoutWorkflow(input: SettlementPayoutWorkflowInput): Promise<{ status: string }> {
  const { payOutSettlement } = proxyActivities<SettlementActivities>(activityOptions);
  return payOutSettlement({ settlementId: input.settlementId });
}
