// Merchants' webhook endpoints (spec "Webhook endpoint"): CRUD at /api/v1/merchant/webhooks (DT) and in GraphQL, the
// event catalogue they subscribe from, and their signing secrets (sealed at rest, resolved by the worker at send time).
import { WebhookEndpointSchema } from './webhook-endpoint.entity.js';

export { WebhookEndpoint, WebhookEndpointSchema } from './webhook-endpoint.entity.js';
export {
  EMITTED_WEBHOOK_EVENTS,
  RESERVED_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_NAMES,
  isEmittedWebhookEvent,
  type EmittedWebhookEvent,
  type ReservedWebhookEvent,
  type WebhookEventName,
} from './webhook-events.js';
export { WEBHOOK_SECRET_PATTERN, WEBHOOK_SECRET_PREFIX, WebhookEndpointSecrets, generateWebhookSecret, webhookEndpointSecretRef } from './webhook-endpoint-secret.js';
export {
  MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT,
  WebhookEndpointService,
  webhookManagerMerchantId,
  type CreatedWebhookEndpoint,
  type WebhookEndpointServiceOptions,
} from './webhook-endpoint.service.js';
export { WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET } from './webhook-receiver-docs.js';
export { WEBHOOKS_TAG, webhookEndpointApi } from './webhook-endpoint.openapi.js';
export { webhookEndpointRoutes } from './webhook-endpoint.routes.js';
export { webhookEndpointResolvers } from './webhook-endpoint.resolvers.js';

export const webhookEndpointEntities = [WebhookEndpointSchema];
