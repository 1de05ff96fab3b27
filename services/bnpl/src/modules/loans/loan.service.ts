import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError, integerRangeMessage } from '@tributary/kit';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Loan } from './loan.entity.js';

export const RECENT_LOANS_DEFAULT = 25;
export const RECENT_LOANS_MAX = 100;

/** Reading sales (spec "Authentication": a dashboard token reads sales); the one path for GraphQL now and REST sales later. */
export class LoanService {
  constructor(private readonly em: EntityManager) {}

  /** The caller's most recent loans with installments, newest first; `first` 1..100 (else 422 on `first`). */
  async recent(principal: BnplPrincipal, first: number = RECENT_LOANS_DEFAULT): Promise<Loan[]> {
    const merchantId = dashboardMerchantId(principal, 'Sales');
    if (!Number.isInteger(first) || first < 1 || first > RECENT_LOANS_MAX) throw new ValidationError({ first: [integerRangeMessage(1, RECENT_LOANS_MAX)] });
    return this.em.getRepository(Loan).recentFor(merchantId, first);
  }
}
