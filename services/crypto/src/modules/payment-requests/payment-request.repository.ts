import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Chain } from '../assets/asset-table.js';
import { PaymentRequest } from './payment-request.entity.js';
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

/** Queries of payment requests; every read populates the asset (code, chain) the object shows. */
export class PaymentRequestRepository {
  constructor(private readonly em: EntityManager) {}

  /** One account's requests, newest first (created_at, then id, both descending), optionally filtered. */
  async listForAccount(accountId: number, page: number, perPage: number, filter: PaymentRequestListFilter = {}, now = new Date()): Promise<PaymentRequestPage> {
    const where: FilterQuery<PaymentRequest>[] = [{ account: accountId }];
    if (filter.status !== undefined) where.push(reportedStatusWhere(filter.status, now));
    if (filter.reference !== undefined) where.push({ reference: filter.reference });
    const [items, total] = await this.em.findAndCount(
      PaymentRequest,
      { $and: where },
      { populate: ['asset'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: perPage, offset: (page - 1) * perPage },
    );
    return { items, total, page, perPage };
  }

  /** The request with this internal id if it belongs to the account, else null (same answer for both). */
  findOwned(accountId: number, id: number, lock = false): Promise<PaymentRequest | null> {
    return this.findOne({ id, account: accountId }, lock);
  }

  findBySlug(slug: string, lock = false): Promise<PaymentRequest | null> {
    return this.findOne({ slug }, lock);
  }

  /**
   * Requests with this receive address on this chain: one, except legacy requests flagged `address_conflict` (made
   * while two accounts could share a key), which all come back so the caller can refuse to guess.
   */
  findByAddress(chain: Chain, address: string): Promise<PaymentRequest[]> {
    return this.em.find(PaymentRequest, { chain, address }, { orderBy: { id: 'asc' } });
  }

  lockById(id: number): Promise<PaymentRequest | null> {
    return this.findOne({ id }, true);
  }

  /**
   * With `lock`, `SELECT … FOR UPDATE` on the request row only (inside the caller's transaction), re-reading it
   * from the database; the asset is loaded by a separate query so its row is never locked.
   */
  private async findOne(where: { id?: number; slug?: string; account?: number }, lock: boolean): Promise<PaymentRequest | null> {
    const request = lock
      ? await this.em.findOne(PaymentRequest, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
      : await this.em.findOne(PaymentRequest, where);
    if (request) await this.em.populate(request, ['asset']);
    return request;
  }
}
