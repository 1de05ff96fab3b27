import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.entity.js';
import { ApiKeyRepository } from './api-key.repository.js';

/**
 * A merchant API key `<KEY_ID>.<SECRET>`. Only the SHA-256 of the secret is stored (hex), so a lost key is
 * replaced, not recovered. Revocation takes effect on the next request.
 */
export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  repository: () => ApiKeyRepository,
  properties: {
    id: p.integer().primary().autoincrement(),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    keyId: p.string().length(64).unique(),
    secretHash: p.string().length(64),
    name: p.string().length(191),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
    /** Last authenticated request, recorded at most once per LAST_USED_RESOLUTION_MS so a busy key is not a write per request. */
    lastUsedAt: p.datetime().nullable(),
  },
});

/** How stale `lastUsedAt` may be: a key used continuously is written about once a minute, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiKey extends ApiKeySchema.class {
  isRevoked(): boolean {
    return this.revokedAt != null;
  }
}
ApiKeySchema.setClass(ApiKey);
