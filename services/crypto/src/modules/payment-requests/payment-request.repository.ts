import { EntityRepository } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { Chain } from '../assets/index.js';
import type { PaymentRequest } from './payment-request.entity.js';
import type { PaymentRequestStatus } from './status-engine.js';

export interface PaymentRequestPage {
  items: PaymentRequest[];
  total: number;
  page: number;
  perPage: number;
}

/** Optional narrowing of a list. `status` is the status the API reports (deadline applied), not the stored one. */
export interface PaymentRequestListFilter {
  status?: PaymentRequestStatus | undefined;
  reference?: string | undefined;
}

/**
 * The rows whose reported status at `now` is `status`, mirroring `effectiveStatus`: a pending or partial invoice
 * whose deadline has passed (`expires_at <= now`) reports expired even while its stored status is not yet.
 */
export function reportedStatusWhere(status: PaymentRequestStatus, now: Date): FilterQuery<PaymentRequest> {
  if (status === 'expired') return { $or: [{ status: 'expired' }, { status: { $in: ['pending', 'partial'] }, expiresAt: { $lte: now } }] };
  if (status === 'pending' || status === 'partial') return { status, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] };
  return { status };
}

/**
 * Queries of payment requests; every read populates the asset (code, chain) the object shows. Taken from a transaction's
 * EntityManager (`tx.getRepository(PaymentRequest)`), its locks are held until that transaction ends.
 */
export class PaymentRequestRepository extends EntityRepository<PaymentRequest> {
  /** One account's requests, newest first (created_at, then id, both descending), optionally filtered. */
  async listForAccount(accountId: number, paging: { page: number; perPage: number }, filter: PaymentRequestListFilter, now: Date): Promise<PaymentRequestPage> {
    const where: FilterQuery<PaymentRequest>[] = [{ account: accountId }];
    if (filter.status !== undefined) where.push(reportedStatusWhere(filter.status, now));
    if (filter.reference !== undefined) where.push({ reference: filter.reference });
    const { page, perPage } = paging;
    const [items, total] = await this.findAndCount(
      { $and: where },
      { populate: ['asset'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: perPage, offset: (page - 1) * perPage },
    );
    return { items, total, page, perPage };
  }

  /** The request with this internal id if it belongs to the account, else null (same answer for both). */
  findOwned(accountId: number, id: number, lock = false): Promise<PaymentRequest | null> {
    return this.findWithAsset({ id, account: accountId }, lock);
  }

  findBySlug(slug: string, lock = false): Promise<PaymentRequest | null> {
    return this.findWithAsset({ slug }, lock);
  }

  /** The request of an Idempotency-Key already used by the account, if any. */
  findByIdempotencyKey(accountId: number, idempotencyKey: string): Promise<PaymentRequest | null> {
    return this.findWithAsset({ account: accountId, idempotencyKey }, false);
  }

  /**
   * Requests with this receive address on this chain: one, except legacy requests flagged `address_conflict` (made
   * while two accounts could share a key), which all come back so the caller can refuse to guess.
   */
  findByAddress(chain: Chain, address: string): Promise<PaymentRequest[]> {
    return this.find({ chain, address }, { orderBy: { id: 'asc' } });
  }

  lockById(id: number): Promise<PaymentRequest | null> {
    return this.findWithAsset({ id }, true);
  }

  /**
   * With `lock`, `SELECT … FOR UPDATE` on the request row only (inside the caller's transaction), re-reading it
   * from the database; the asset is loaded by a separate query so its row is never locked.
   */
  private async findWithAsset(where: FilterQuery<PaymentRequest>, lock: boolean): Promise<PaymentRequest | null> {
    const request = lock ? await this.findOne(where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : await this.findOne(where);
    if (request) await this.em.populate(request, ['asset']);
    return request;
  }
}
