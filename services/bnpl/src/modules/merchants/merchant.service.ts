import type { EntityManager } from '@mikro-orm/postgresql';
import type { BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from './merchant.entity.js';

export class MerchantService {
  constructor(private readonly em: EntityManager) {}

  getMerchant(principal: BnplPrincipal): Promise<Merchant> {
    return this.em.getRepository(Merchant).findOneOrFail({ id: principal.merchantId });
  }

  /** Entity resolution: a merchant is visible only to its own credentials; anything else reads as absent. */
  async findVisibleMerchant(principal: BnplPrincipal, id: string): Promise<Merchant | null> {
    if (principal.merchantId !== id) return null;
    return this.em.getRepository(Merchant).findById(id);
  }
}
