export * from './constants.js';
export type * from './activities.js';
export type * from './types.js';
import type {
  chainWatchWorkflow,
  invoiceExpiryWorkflow,
  loanLifecycleWorkflow,
  photoMediaWorkflow,
  photosReportWorkflow,
  refundProcessingWorkflow,
  settlementCycleWorkflow,
  settlementPayoutWorkflow,
  webhookDeliveryWorkflow,
  widgetSessionExpiryWorkflow,
} from './workflows/index.js';

/** Type of the webhook delivery workflow, for typed starts by name: `client.workflow.start<WebhookDeliveryWorkflow>(...)`. */
export type WebhookDeliveryWorkflow = typeof webhookDeliveryWorkflow;

/** Type of the invoice expiry workflow: `client.workflow.start<InvoiceExpiryWorkflow>(WORKFLOW_TYPES.invoiceExpiry, ...)`. */
export type InvoiceExpiryWorkflow = typeof invoiceExpiryWorkflow;

/** Type of the widget session expiry workflow: `client.workflow.start<WidgetSessionExpiryWorkflow>(WORKFLOW_TYPES.widgetSessionExpiry, ...)`. */
export type WidgetSessionExpiryWorkflow = typeof widgetSessionExpiryWorkflow;

/** Type of the photo media workflow: `client.workflow.start<PhotoMediaWorkflow>(WORKFLOW_TYPES.photoMedia, ...)`. */
export type PhotoMediaWorkflow = typeof photoMediaWorkflow;

/** Type of the photos report workflow: `client.workflow.start<PhotosReportWorkflow>(WORKFLOW_TYPES.photosReport, ...)`. */
export type PhotosReportWorkflow = typeof photosReportWorkflow;

/** Type of the bnpl refund processing workflow: `client.workflow.start<RefundProcessingWorkflow>(WORKFLOW_TYPES.refundProcessing, ...)`. */
export type RefundProcessingWorkflow = typeof refundProcessingWorkflow;

/** Type of the bnpl settlement cycle workflow (started by the per-cadence Schedules). */
export type SettlementCycleWorkflow = typeof settlementCycleWorkflow;

/** Type of the bnpl settlement payout workflow (`settlement-<id>`). */
export type SettlementPayoutWorkflow = typeof settlementPayoutWorkflow;

/** Type of the loan lifecycle workflow: `client.workflow.start<LoanLifecycleWorkflow>(WORKFLOW_TYPES.loanLifecycle, ...)`. */
export type LoanLifecycleWorkflow = typeof loanLifecycleWorkflow;

/** Type of crypto's chain watch workflow: `client.workflow.start<ChainWatchWorkflow>(WORKFLOW_TYPES.chainWatch, ...)`. */
export type ChainWatchWorkflow = typeof chainWatchWorkflow;
