// Activities of the refund processing workflow (contract: RefundProcessingActivities in @tributary/workflows), built by
// a factory with the refund domain injected so the worker and the tests share one path: RefundService.
import { NotFoundError } from '@tributary/kit';
import type { RefundProcessingActivities, RefundStepResult } from '@tributary/workflows';
import type { Refund } from './refund.entity.js';
import type { RefundService } from './refund.service.js';

export interface RefundActivitiesDeps {
  refunds: RefundService;
}

const resultOf = (refund: Refund): RefundStepResult => ({ status: refund.status, failureReason: refund.failureReason ?? null });

/** A refund that is gone (its merchant was deleted) will never be processed; retrying would not help. */
async function orGone(step: () => Promise<Refund>): Promise<RefundStepResult> {
  try {
    return resultOf(await step());
  } catch (error) {
    if (error instanceof NotFoundError) return { status: 'not_found', failureReason: null };
    throw error;
  }
}

export function createRefundActivities({ refunds }: RefundActivitiesDeps): RefundProcessingActivities {
  return {
    beginRefundProcessing: ({ refundId }) => orGone(() => refunds.beginProcessing(refundId)),
    completeRefund: ({ refundId }) => orGone(() => refunds.complete(refundId)),
  };
}
