import { EntityRepository } from '@mikro-orm/postgresql';
import type { Account } from './account.entity.js';
import { ApiKey, LAST_USED_RESOLUTION_MS } from './api-key.entity.js';

export class AccountRepository extends EntityRepository<Account> {
  /** The key with this key id together with its account, or null (revoked keys included: the caller decides). */
  findKeyWithAccount(keyId: string): Promise<ApiKey | null> {
    return this.em.findOne(ApiKey, { keyId }, { populate: ['account'] });
  }

  /**
   * Records that the key authenticated a request at `now`, unless that was recorded less than a minute ago, so a busy
   * key costs one write a minute rather than one per request. Runs before the route, when nothing else is pending.
   */
  async recordKeyUse(key: ApiKey, now: Date): Promise<void> {
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    key.lastUsedAt = now;
    await this.em.flush();
  }

  activeKeys(account: Account): Promise<ApiKey[]> {
    return this.em.find(ApiKey, { account, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
