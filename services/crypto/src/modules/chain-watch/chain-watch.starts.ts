// The crypto worker asks Temporal, at start, for one chain-watch-<chain> workflow per watched chain. With the conflict
// policy USE_EXISTING every worker may ask: a running watcher is kept (so two workers never scan one chain twice),
// a missing one is started.
import type { Client } from '@temporalio/client';
import type { Logger } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, chainWatchWorkflowId, type ChainWatchWorkflow, type ChainWatchWorkflowInput } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';
import type { Chain } from '../assets/index.js';

export async function ensureChainWatchWorkflows(client: Client, chains: readonly Chain[], pollIntervalMs: number, logger?: Pick<Logger, 'info'>): Promise<void> {
  for (const chain of chains) {
    const input: ChainWatchWorkflowInput = { chain, pollIntervalMs };
    const handle = await client.workflow.start<ChainWatchWorkflow>(WORKFLOW_TYPES.chainWatch, {
      workflowId: chainWatchWorkflowId(chain),
      taskQueue: TASK_QUEUES[SERVICE_NAME],
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: `Watches ${chain}: scans new blocks for payments, every ${pollIntervalMs / 1000} s at the tip`,
    });
    logger?.info({ chain, workflowId: handle.workflowId, runId: handle.firstExecutionRunId }, 'chain watcher running');
  }
}
