// The webhook endpoint resource: never the secret, except once in the answer to its creation.
import type { z } from 'zod';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import type { createdWebhookEndpointResponse, webhookEndpointListResponse, webhookEndpointResource } from './webhook-endpoint.openapi.js';
import type { PhotosWebhookEvent } from './webhook-events.js';

export function presentWebhookEndpoint(endpoint: WebhookEndpoint): z.input<typeof webhookEndpointResource> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events as PhotosWebhookEvent[],
    is_active: endpoint.isActive,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function presentWebhookEndpointList(endpoints: readonly WebhookEndpoint[]): z.input<typeof webhookEndpointListResponse> {
  return { data: endpoints.map(presentWebhookEndpoint) };
}

export function presentCreatedWebhookEndpoint(endpoint: WebhookEndpoint, secret: string): z.input<typeof createdWebhookEndpointResponse> {
  return { data: { ...presentWebhookEndpoint(endpoint), secret } };
}
