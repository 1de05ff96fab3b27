// The API key create body (spec "API keys"), as a zod schema: the route documents it (api-key.openapi.ts) and
// ApiKeyService validates with it.
import { wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { API_KEY_ENVIRONMENTS } from './api-key.entity.js';

export const createApiKeyInput = z.object({
  name: wellFormedText(z.string().trim().min(1).max(191)),
  environment: z.enum(API_KEY_ENVIRONMENTS),
});

export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;
