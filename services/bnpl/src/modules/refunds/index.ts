// Refunds (spec "Refund"): a merchant refunds part or all of a sale; the workflow `refund-<id>` processes it.
import { RefundSchema } from './refund.entity.js';

export { Refund, RefundSchema } from './refund.entity.js';
export { RefundRepository, type RefundPageQuery } from './refund.repository.js';
export {
  COUNTED_REFUND_STATUSES,
  REFUNDABLE_LOAN_STATUSES,
  REFUND_STATUSES,
  allocateRefund,
  applyRefundStep,
  isFinalRefundStatus,
  isRefundable,
  refundableCents,
  type RefundStatus,
} from './refund-status-engine.js';
export { REFUND_REFUSED_REASON, isRefundFailureTriggerEmail, simulatedRefundProcessor, type RefundOrder, type RefundOutcome, type RefundProcessor } from './refund-processor.js';
export { RefundService, UNKNOWN_LOAN_MESSAGE, exceedsPrincipalMessage, notRefundableMessage, type RefundCreation, type RefundPage, type RefundServiceOptions } from './refund.service.js';
export { REFUNDS_PAGE_DEFAULT, REFUNDS_PAGE_MAX, createRefundInput, refundFiltersFromQuery, type NewRefund, type RefundFilters } from './refund.validation.js';
export { presentRefund } from './refund.presenter.js';
export { REFUNDS_PATH, refundApi, refundResource } from './refund.openapi.js';
export { refundRoutes } from './refund.routes.js';
export { refundResolvers } from './refund.resolvers.js';
export { createRefundActivities, type RefundActivitiesDeps } from './refund.activities.js';

export const refundEntities = [RefundSchema];
