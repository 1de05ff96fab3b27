import { EntityRepository } from '@mikro-orm/postgresql';
import type { Account } from './account.entity.js';
import { LAST_USED_RESOLUTION_MS, type ApiKey } from './api-key.entity.js';

export class ApiKeyRepository extends EntityRepository<ApiKey> {
  /** The key with this key id together with its account, or null (revoked keys included: the caller decides). */
  findByKeyIdWithAccount(keyId: string): Promise<ApiKey | null> {
    return this.findOne({ keyId }, { populate: ['account'] });
  }

  /**
   * Records that the key authenticated a request at `now`, unless that was recorded less than a minute ago, so a busy
   * key costs one write a minute rather than one per request. Runs before the route, when nothing else is pending.
   */
  async recordUse(key: ApiKey, now: Date): Promise<void> {
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    key.lastUsedAt = now;
    await this.em.flush();
  }

  /** The account's keys that are not revoked, oldest first. */
  activeFor(account: Account): Promise<ApiKey[]> {
    return this.find({ account, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
