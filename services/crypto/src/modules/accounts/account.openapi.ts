// The account routes as OpenAPI operations; account.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_API_PREFIX } from '../../api-paths.js';
import { API_KEY_SECURITY } from '../../api-security.js';
import { ACCOUNT_STATUSES } from './account.entity.js';

export const accountResource = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    created_at: z.iso.datetime(),
    api_keys: z.array(z.object({ key_id: z.string(), name: z.string(), created_at: z.iso.datetime(), last_used_at: z.iso.datetime().nullable() })).meta({ description: 'Active keys (never their secrets).' }),
  })
  .meta({ id: 'CryptoAccount' });

export const accountResponse = z.object({ account: accountResource });

export const accountApi = {
  get: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_API_PREFIX}/account`,
    errors: [401],
    operation: {
      operationId: 'getAccount',
      summary: "The calling merchant's account and its active API keys",
      tags: ['Account'],
      security: API_KEY_SECURITY,
      responses: { '200': { description: 'The account.', content: { 'application/json': { schema: accountResponse } } } },
    },
  }),
};
