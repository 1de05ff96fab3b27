// Entry point of the workflow bundle: every workflow the service workers run is exported here.
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { invoiceExpiryWorkflow } from './invoice-expiry.js';
export { widgetSessionExpiryWorkflow } from './widget-session-expiry.js';
export { photoMediaWorkflow } from './photo-media.js';
export { photosReportWorkflow } from './photos-report.js';
export { refundProcessingWorkflow } from './refund-processing.js';
export { settlementCycleWorkflow, settlementPayoutWorkflow, testClockSettlementsWorkflow } from './settlements.js';
export { loanLifecycleWorkflow } from './loan-lifecycle.js';
export { chainWatchWorkflow } from './chain-watch.js';
