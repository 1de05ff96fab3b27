// The spec's API key resource: never the secret key, except once in the answer to its creation.
import type { z } from 'zod';
import type { ApiKey } from './api-key.entity.js';
import type { apiKeyListResponse, apiKeyResource, createdApiKeyResource } from './api-key.openapi.js';

export function presentApiKey(key: ApiKey): z.input<typeof apiKeyResource> {
  return {
    id: key.id,
    name: key.name,
    public_key: key.publicKey,
    environment: key.environment,
    created_at: key.createdAt.toISOString(),
  };
}

export function presentApiKeyList(keys: readonly ApiKey[]): z.input<typeof apiKeyListResponse> {
  return { data: keys.map(presentApiKey) };
}

/** The created key with its secret, the only time it is shown (`secret_key` before `created_at`). */
export function presentCreatedApiKey(key: ApiKey, secretKey: string): z.input<typeof createdApiKeyResource> {
  const { created_at: createdAt, ...rest } = presentApiKey(key);
  return { ...rest, secret_key: secretKey, created_at: createdAt };
}
