// The API key routes as OpenAPI operations: the same zod schema validates the request body (ApiKeyService.create)
// and documents it; api-key.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { PUBLIC_KEY_PATTERN, PUBLIC_KEY_SUFFIX_LENGTH, SECRET_KEY_PATTERN, SECRET_KEY_SUFFIX_LENGTH } from './api-key-credentials.js';
import { API_KEY_ENVIRONMENTS } from './api-key.entity.js';
import { createApiKeyInput } from './api-key.validation.js';

const tags = ['API keys'];

export const apiKeyResource = z
  .object({
    id: z.uuid(),
    name: z.string(),
    public_key: z
      .string()
      .regex(PUBLIC_KEY_PATTERN)
      .meta({ description: `\`pk_<environment>_\` + ${PUBLIC_KEY_SUFFIX_LENGTH} characters [A-Za-z0-9]; sent as X-Merchant-Public-Key.`, example: `pk_test_${'x'.repeat(PUBLIC_KEY_SUFFIX_LENGTH)}` }),
    environment: z.enum(API_KEY_ENVIRONMENTS),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'BnplApiKey', description: 'An active API key pair, without its secret.' });

export const createdApiKeyResource = apiKeyResource
  .extend({
    secret_key: z
      .string()
      .regex(SECRET_KEY_PATTERN)
      .meta({ description: `\`sk_<environment>_\` + ${SECRET_KEY_SUFFIX_LENGTH} characters [A-Za-z0-9]. Shown only in this response; only a bcrypt hash is stored.` }),
  })
  .meta({ id: 'BnplCreatedApiKey', description: 'A new API key pair, including the secret key (shown once).' });

export const apiKeyListResponse = z.object({ data: z.array(apiKeyResource) });

export const apiKeyApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/api-keys`,
    errors: [401],
    operation: {
      operationId: 'listApiKeys',
      summary: "List the merchant's active API keys",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      responses: { '200': { description: 'Active (unrevoked) keys, newest first.', content: { 'application/json': { schema: apiKeyListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${MERCHANT_PREFIX}/api-keys`,
    errors: [401, 422],
    operation: {
      operationId: 'createApiKey',
      summary: 'Create an API key pair',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createApiKeyInput } } },
      responses: { '201': { description: 'The new key pair; the secret key is never shown again.', content: { 'application/json': { schema: createdApiKeyResource } } } },
    },
  }),
  revoke: defineApiRoute({
    method: 'delete',
    path: `${MERCHANT_PREFIX}/api-keys/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: "Another merchant's key, an unknown id or an already revoked key all read as 404.",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { path: z.object({ id: z.string().meta({ description: 'API key id (UUID).' }) }) },
      responses: { '204': { description: 'Revoked.' } },
    },
  }),
};
