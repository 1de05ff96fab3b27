import { LockMode } from '@mikro-orm/core';
import { EntityRepository } from '@mikro-orm/postgresql';
import type { PaymentLink } from './payment-link.entity.js';

export class PaymentLinkRepository extends EntityRepository<PaymentLink> {
  /** The merchant's live (not deleted) links, newest first. */
  listFor(merchantId: string): Promise<PaymentLink[]> {
    return this.find({ merchant: merchantId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  findOwned(merchantId: string, id: string, lock = false): Promise<PaymentLink | null> {
    return this.findOne({ id, merchant: merchantId, deletedAt: null }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {});
  }

  findBySlug(slug: string, lock = false): Promise<PaymentLink | null> {
    return this.findOne({ slug, deletedAt: null }, lock ? { populate: ['merchant'], lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : { populate: ['merchant'] });
  }
}
