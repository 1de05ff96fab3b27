// The webhook endpoint routes as OpenAPI operations: the same zod schemas validate the bodies (WebhookEndpointService)
// and document them; webhook-endpoint.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { WEBHOOKS_TAG_DESCRIPTION } from './webhook-receiver-docs.js';
import { WEBHOOK_EVENT_NAMES } from './webhook-events.js';
import { MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT } from './webhook-endpoint.service.js';
import { createWebhookEndpointInput, updateWebhookEndpointInput } from './webhook-endpoint.validation.js';

export const WEBHOOKS_TAG = { name: 'Webhooks', description: WEBHOOKS_TAG_DESCRIPTION };
const tags = [WEBHOOKS_TAG.name];
const WEBHOOKS_PATH = `${MERCHANT_PREFIX}/webhooks`;
const idParam = { path: z.object({ id: z.string().meta({ description: 'Webhook endpoint id (UUID).' }) }) };

export const webhookEndpointResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_NAMES)),
    is_active: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'BnplWebhookEndpoint', description: 'A webhook endpoint, without its secret.' });

export const createdWebhookEndpointResource = webhookEndpointResource
  .extend({ secret: z.string().meta({ description: '`whsec_` + 48 characters: the HMAC key of X-Service-Signature. Shown only in this response; stored encrypted.' }) })
  .meta({ id: 'BnplCreatedWebhookEndpoint', description: 'A new webhook endpoint, including its signing secret (shown once).' });

export const webhookEndpointListResponse = z.object({ data: z.array(webhookEndpointResource) });

export const webhookEndpointApi = {
  list: defineApiRoute({
    method: 'get',
    path: WEBHOOKS_PATH,
    errors: [401],
    operation: {
      operationId: 'listWebhookEndpoints',
      summary: "List the merchant's webhook endpoints",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      responses: { '200': { description: 'Every endpoint, in creation order, without secrets.', content: { 'application/json': { schema: webhookEndpointListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: WEBHOOKS_PATH,
    errors: [401, 422],
    operation: {
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description: `The URL must be https and resolve to public addresses only; it is not contacted now. Unknown event names are refused (422 on \`events.<index>\`); duplicates are dropped. At most ${MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT} endpoints per merchant (422 \`webhook_endpoint_limit\`).`,
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createWebhookEndpointInput } } },
      responses: { '201': { description: 'The new endpoint; its secret is never shown again.', content: { 'application/json': { schema: createdWebhookEndpointResource } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${WEBHOOKS_PATH}/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'getWebhookEndpoint',
      summary: 'Read one webhook endpoint',
      description: "Another merchant's endpoint and an unknown id both read as 404.",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: idParam,
      responses: { '200': { description: 'The endpoint, without its secret.', content: { 'application/json': { schema: webhookEndpointResource } } } },
    },
  }),
  update: defineApiRoute({
    method: 'put',
    path: `${WEBHOOKS_PATH}/:id`,
    errors: [401, 404, 422],
    operation: {
      operationId: 'updateWebhookEndpoint',
      summary: 'Replace a webhook endpoint’s settings',
      description: 'Replaces url, events and is_active (all three required); the secret is kept. The new URL is checked like on create. Deliveries already queued keep the URL they were queued for.',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: idParam,
      requestBody: { required: true, content: { 'application/json': { schema: updateWebhookEndpointInput } } },
      responses: { '200': { description: 'The updated endpoint, without its secret.', content: { 'application/json': { schema: webhookEndpointResource } } } },
    },
  }),
  delete: defineApiRoute({
    method: 'delete',
    path: `${WEBHOOKS_PATH}/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'The endpoint receives no further events; retries still queued for it fail (they are never sent unsigned).',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: idParam,
      responses: { '204': { description: 'Deleted.' } },
    },
  }),
};
