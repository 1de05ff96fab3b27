import { EntityRepository } from '@mikro-orm/postgresql';
import type { Loan } from './loan.entity.js';

export class LoanRepository extends EntityRepository<Loan> {
  /** The merchant's most recent loans with their installments (in number order), newest first. */
  recentFor(merchantId: string, limit: number): Promise<Loan[]> {
    return this.find({ merchant: merchantId }, { populate: ['installments'], orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  }
}
