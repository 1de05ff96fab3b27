// The webhook endpoint routes as OpenAPI operations; webhook-endpoint.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { MAX_WEBHOOK_ENDPOINTS_PER_TEAM } from './webhook-endpoint.service.js';
import { createWebhookEndpointBody, updateWebhookEndpointBody } from './webhook-endpoint.validation.js';
import { WEBHOOKS_TAG_DESCRIPTION } from './webhook-receiver-docs.js';
import { PHOTOS_WEBHOOK_EVENTS } from './webhook-events.js';

export const WEBHOOKS_TAG = { name: 'Webhooks', description: WEBHOOKS_TAG_DESCRIPTION };
const tags = [WEBHOOKS_TAG.name];
export const WEBHOOK_ENDPOINTS_PATH = `${REST_BASE}/webhook-endpoints`;
const idParam = { path: z.object({ endpoint: z.string().meta({ description: 'Webhook endpoint id (UUID).' }) }) };
const managerOnly = 'Owner or admin in an office session only (403 `required_roles` otherwise).';

export const webhookEndpointResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(PHOTOS_WEBHOOK_EVENTS)),
    is_active: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosWebhookEndpoint', description: 'A webhook endpoint, without its secret.' });

export const createdWebhookEndpointResponse = z.object({
  data: webhookEndpointResource
    .extend({ secret: z.string().meta({ description: 'Standard Webhooks secret (`whsec_` + base64 of 32 bytes). Shown only in this response; stored encrypted.' }) })
    .meta({ id: 'PhotosCreatedWebhookEndpoint' }),
});
export const webhookEndpointResponse = z.object({ data: webhookEndpointResource });
export const webhookEndpointListResponse = z.object({ data: z.array(webhookEndpointResource) });

const operation = (operationId: string, summary: string, description: string) => ({ operationId, summary, description, tags, security: ACCESS_TOKEN_SECURITY });

export const webhookEndpointApi = {
  list: defineApiRoute({
    method: 'get',
    path: WEBHOOK_ENDPOINTS_PATH,
    errors: [401, 403],
    operation: {
      ...operation('listWebhookEndpoints', "List the team's webhook endpoints", `In creation order, without secrets. ${managerOnly}`),
      responses: { '200': { description: 'Every endpoint.', content: { 'application/json': { schema: webhookEndpointListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: WEBHOOK_ENDPOINTS_PATH,
    errors: [401, 403, 422],
    operation: {
      ...operation(
        'createWebhookEndpoint',
        'Register a webhook endpoint',
        `The URL must be https and resolve to public addresses only; it is not contacted now. At most ${MAX_WEBHOOK_ENDPOINTS_PER_TEAM} per team (422 \`webhook_endpoint_limit\`). ${managerOnly}`,
      ),
      requestBody: { required: true, content: { 'application/json': { schema: createWebhookEndpointBody } } },
      responses: { '201': { description: 'The new endpoint; its secret is never shown again.', content: { 'application/json': { schema: createdWebhookEndpointResponse } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${WEBHOOK_ENDPOINTS_PATH}/:endpoint`,
    errors: [401, 403, 404],
    operation: {
      ...operation('getWebhookEndpoint', 'Read one webhook endpoint', `Another team's endpoint and an unknown id both read as 404. ${managerOnly}`),
      requestParams: idParam,
      responses: { '200': { description: 'The endpoint, without its secret.', content: { 'application/json': { schema: webhookEndpointResponse } } } },
    },
  }),
  update: defineApiRoute({
    method: 'patch',
    path: `${WEBHOOK_ENDPOINTS_PATH}/:endpoint`,
    errors: [401, 403, 404, 422],
    operation: {
      ...operation('updateWebhookEndpoint', 'Edit a webhook endpoint', `Changes any of url, events, is_active; the secret is kept. ${managerOnly}`),
      requestParams: idParam,
      requestBody: { required: true, content: { 'application/json': { schema: updateWebhookEndpointBody } } },
      responses: { '200': { description: 'The endpoint, without its secret.', content: { 'application/json': { schema: webhookEndpointResponse } } } },
    },
  }),
  delete: defineApiRoute({
    method: 'delete',
    path: `${WEBHOOK_ENDPOINTS_PATH}/:endpoint`,
    errors: [401, 403, 404],
    operation: {
      ...operation('deleteWebhookEndpoint', 'Delete a webhook endpoint', `It receives nothing more; retries still queued for it fail, never sent unsigned. ${managerOnly}`),
      requestParams: idParam,
      responses: { '204': { description: 'Deleted.' } },
    },
  }),
};
