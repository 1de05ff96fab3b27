export * from './constants.js';
export type * from './activities.js';
export type * from './types.js';
import type { invoiceExpiryWorkflow, webhookDeliveryWorkflow } from './workflows/index.js';

/** Type of the webhook delivery workflow, for typed starts by name: `client.workflow.start<WebhookDeliveryWorkflow>(...)`. */
export type WebhookDeliveryWorkflow = typeof webhookDeliveryWorkflow;

/** Type of the invoice expiry workflow: `client.workflow.start<InvoiceExpiryWorkflow>(WORKFLOW_TYPES.invoiceExpiry, ...)`. */
export type InvoiceExpiryWorkflow = typeof invoiceExpiryWorkflow;
