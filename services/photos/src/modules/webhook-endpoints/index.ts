// A team's webhook endpoints (URL, events, sealed Standard Webhooks secret), managed by owners and admins; the secret
// resolver the worker signs with.
import { WebhookEndpointSchema } from './webhook-endpoint.entity.js';

export { PHOTOS_WEBHOOK_EVENTS, isPhotosWebhookEvent, type PhotosWebhookEvent } from './webhook-events.js';
export { WebhookEndpoint, WebhookEndpointSchema } from './webhook-endpoint.entity.js';
export { webhookSecretSeal } from './webhook-endpoint-secret.js';
export { MAX_WEBHOOK_ENDPOINTS_PER_TEAM, WebhookEndpointService, type CreatedWebhookEndpoint } from './webhook-endpoint.service.js';
export { WEBHOOKS_TAG, webhookEndpointApi } from './webhook-endpoint.openapi.js';
export { webhookEndpointRoutes } from './webhook-endpoint.routes.js';
export { webhookEndpointResolvers } from './webhook-endpoint.resolvers.js';

export const webhookEndpointEntities = [WebhookEndpointSchema];
