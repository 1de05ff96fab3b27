export * from './constants.js';
export type * from './activities.js';
export type * from './types.js';
import type { webhookDeliveryWorkflow } from './workflows/index.js';

/** Type of the webhook delivery workflow, for typed starts by name: `client.workflow.start<WebhookDeliveryWorkflow>(...)`. */
export type WebhookDeliveryWorkflow = typeof webhookDeliveryWorkflow;
