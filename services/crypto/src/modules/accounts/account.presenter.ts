// The account as the merchant API shows it (GET /api/merchant/v1/account): never a key's secret or hash.
import type { z } from 'zod';
import type { Account } from './account.entity.js';
import type { accountResponse } from './account.openapi.js';
import type { ApiKey } from './api-key.entity.js';

export type AccountResponseBody = z.input<typeof accountResponse>;

export function presentAccount(account: Account, activeKeys: readonly ApiKey[]): AccountResponseBody {
  return {
    account: {
      id: account.id,
      name: account.name,
      status: account.status,
      created_at: account.createdAt.toISOString(),
      api_keys: activeKeys.map((key) => ({ key_id: key.keyId, name: key.name, created_at: key.createdAt.toISOString(), last_used_at: key.lastUsedAt?.toISOString() ?? null })),
    },
  };
}
