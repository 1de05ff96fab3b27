import { EntityRepository } from '@mikro-orm/postgresql';
import type { Merchant } from '../merchants/index.js';
import type { ApiKey } from './api-key.entity.js';

export class ApiKeyRepository extends EntityRepository<ApiKey> {
  findByPublicKeyWithMerchant(publicKey: string): Promise<ApiKey | null> {
    return this.findOne({ publicKey }, { populate: ['merchant'] });
  }

  activeFor(merchant: Merchant | string): Promise<ApiKey[]> {
    return this.find({ merchant, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
