import { log, proxyActivities } from '@temporalio/workflow';
import type { RefundProcessingActivities } from '../activities.js';
import type { RefundProcessingWorkflowInput, RefundProcessingWorkflowResult } from '../types.js';

/**
 * One workflow per bnpl refund (id `refund-<id>`): requested → processing, then the payment processor returns the money
 * and the refund is stored processed (what the shopper owes shrinks) or failed with its reason. Both steps are
 * idempotent activities, so a worker crash between them resumes where it stopped; only infrastructure errors (database
 * down) throw, and those are retried until they pass.
 */
export async function refundProcessingWorkflow(input: RefundProcessingWorkflowInput): Promise<RefundProcessingWorkflowResult> {
  const { beginRefundProcessing, completeRefund } = proxyActivities<RefundProcessingActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });
  const begun = await beginRefundProcessing({ refundId: input.refundId });
  if (begun.status !== 'processing') {
    log.info('refund not processing; nothing to do', { refundId: input.refundId, status: begun.status });
    return begun;
  }
  return completeRefund({ refundId: input.refundId });
}
