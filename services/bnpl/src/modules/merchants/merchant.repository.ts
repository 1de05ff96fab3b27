import { EntityRepository } from '@mikro-orm/postgresql';
import type { Merchant } from './merchant.entity.js';

export class MerchantRepository extends EntityRepository<Merchant> {
  findById(id: string): Promise<Merchant | null> {
    return this.findOne({ id });
  }
}
