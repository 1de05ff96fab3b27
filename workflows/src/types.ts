import type { ServiceName, WebhookSchedule } from './constants.js';

export interface WebhookDeliveryWorkflowInput {
  service: ServiceName;
  /** Id of the WebhookDelivery row in the owning service's database (holds event, body, endpoint, secret reference). */
  deliveryId: string;
  schedule: WebhookSchedule;
}

export interface WebhookDeliveryWorkflowResult {
  outcome: 'delivered' | 'failed';
  /** Number of attempts made. */
  attempts: number;
}
