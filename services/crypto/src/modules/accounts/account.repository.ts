import { EntityRepository } from '@mikro-orm/postgresql';
import type { Account } from './account.entity.js';
import { ApiKey } from './api-key.entity.js';

export class AccountRepository extends EntityRepository<Account> {
  /** The key with this key id together with its account, or null (revoked keys included: the caller decides). */
  findKeyWithAccount(keyId: string): Promise<ApiKey | null> {
    return this.em.findOne(ApiKey, { keyId }, { populate: ['account'] });
  }

  activeKeys(account: Account): Promise<ApiKey[]> {
    return this.em.find(ApiKey, { account, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
