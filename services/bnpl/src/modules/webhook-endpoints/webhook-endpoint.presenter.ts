// The spec's webhook endpoint resource: never the secret, except once in the answer to its creation.
import type { z } from 'zod';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import type { createdWebhookEndpointResource, webhookEndpointListResponse, webhookEndpointResource } from './webhook-endpoint.openapi.js';
import type { WebhookEventName } from './webhook-events.js';

export function presentWebhookEndpoint(endpoint: WebhookEndpoint): z.input<typeof webhookEndpointResource> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events as WebhookEventName[],
    is_active: endpoint.isActive,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function presentWebhookEndpointList(endpoints: readonly WebhookEndpoint[]): z.input<typeof webhookEndpointListResponse> {
  return { data: endpoints.map(presentWebhookEndpoint) };
}

/** The created endpoint with its secret, the only time it is shown (the spec's fields first: id, url, events, is_active, secret). */
export function presentCreatedWebhookEndpoint(endpoint: WebhookEndpoint, secret: string): z.input<typeof createdWebhookEndpointResource> {
  const { created_at: createdAt, updated_at: updatedAt, ...rest } = presentWebhookEndpoint(endpoint);
  return { ...rest, secret, created_at: createdAt, updated_at: updatedAt };
}
