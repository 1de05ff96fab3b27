import { continueAsNew, log, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { ChainWatchActivities } from '../activities.js';
import { CHAIN_WATCH_SCANS_PER_RUN } from '../constants.js';
import type { ChainWatchWorkflowInput } from '../types.js';

/**
 * One workflow per chain (id `chain-watch-<chain>`, crypto's task queue): scan, and once the scan reached the node's
 * tip wait `pollIntervalMs` before the next (a backlog is scanned without waiting). The cursor is in crypto's database,
 * so the workflow holds no chain state: continue-as-new after `scansPerRun` scans (or when Temporal suggests it)
 * starts a fresh history with the same input. A failing scan (node down, garbage) is retried by Temporal with backoff
 * up to a minute apart, for as long as it fails; the chain's health is on its cursor (/readyz, GraphQL).
 */
export async function chainWatchWorkflow(input: ChainWatchWorkflowInput): Promise<never> {
  const { scanChain } = proxyActivities<ChainWatchActivities>({
    startToCloseTimeout: '10 minutes',
    // A scan heartbeats per block: a worker killed mid-scan is noticed in 30 s and the scan runs again elsewhere.
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });
  const scans = input.scansPerRun ?? CHAIN_WATCH_SCANS_PER_RUN;
  for (let scan = 0; scan < scans && !workflowInfo().continueAsNewSuggested; scan++) {
    const result = await scanChain({ chain: input.chain });
    if (result.forkHeight !== undefined) log.warn('reorg undone', { chain: input.chain, forkHeight: result.forkHeight });
    if (result.toHeight >= result.tipHeight) await sleep(input.pollIntervalMs);
  }
  return continueAsNew<typeof chainWatchWorkflow>(input);
}
