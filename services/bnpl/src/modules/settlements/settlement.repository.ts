import { EntityRepository } from '@mikro-orm/postgresql';
import { keysetAfter, type KeysetPosition } from '@tributary/kit';
import type { Settlement } from './settlement.entity.js';

export class SettlementRepository extends EntityRepository<Settlement> {
  /** One page of the merchant's batches, newest first; `limit + 1` rows so the caller knows whether more follow. */
  page(merchantId: string, after: KeysetPosition | undefined, limit: number): Promise<Settlement[]> {
    return this.find(
      { merchant: merchantId, ...keysetAfter(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 },
    );
  }
}
