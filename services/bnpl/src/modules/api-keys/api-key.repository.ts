import { EntityRepository } from '@mikro-orm/postgresql';
import type { Merchant } from '../merchants/index.js';
import type { ApiKey, ApiKeyEnvironment } from './api-key.entity.js';

export class ApiKeyRepository extends EntityRepository<ApiKey> {
  findByPublicKeyWithMerchant(publicKey: string): Promise<ApiKey | null> {
    return this.findOne({ publicKey }, { populate: ['merchant'] });
  }

  /** The merchant's keys that are not revoked, oldest first; one environment's when given. */
  activeFor(merchant: Merchant | string, environment?: ApiKeyEnvironment): Promise<ApiKey[]> {
    const where = environment === undefined ? { merchant, revokedAt: null } : { merchant, revokedAt: null, environment };
    return this.find(where, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
