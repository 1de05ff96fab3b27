import { EntityRepository } from '@mikro-orm/postgresql';
import { keysetAfter } from '@tributary/kit';
import type { Refund } from './refund.entity.js';
import type { RefundStatus } from './refund-status-engine.js';

/** A page of a merchant's refunds, newest first, after a keyset position (created_at, id). */
export interface RefundPageQuery {
  merchantId: string;
  loanId?: string;
  status?: RefundStatus[];
  after?: { createdAt: Date; id: string };
  limit: number;
}

export class RefundRepository extends EntityRepository<Refund> {
  /** One page, newest first; `limit + 1` rows are read so the caller knows whether another page follows. */
  page({ merchantId, loanId, status, after, limit }: RefundPageQuery): Promise<Refund[]> {
    return this.find(
      {
        merchant: merchantId,
        ...(loanId ? { loan: loanId } : {}),
        ...(status ? { status: { $in: status } } : {}),
        ...keysetAfter(after),
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 },
    );
  }

  /** The loan's refunds (for the principal check, under the loan's row lock). */
  ofLoan(loanId: string): Promise<Refund[]> {
    return this.find({ loan: loanId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** The merchant's refund made under this Idempotency-Key, if any. */
  byIdempotencyKey(merchantId: string, key: string): Promise<Refund | null> {
    return this.findOne({ merchant: merchantId, idempotencyKey: key });
  }
}
