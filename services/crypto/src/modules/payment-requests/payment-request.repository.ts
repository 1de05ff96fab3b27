import { EntityRepository, type QBFilterQuery } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { Amount } from '../../money/index.js';
import type { AssetCode, Chain } from '../assets/index.js';
import type { PaymentRequest } from './payment-request.entity.js';
import type { PaymentRequestView } from './payment-request.presenter.js';
import type { PaymentRequestStatus, PaymentRequestType } from './status-engine.js';

export interface PaymentRequestPage {
  items: PaymentRequest[];
  total: number;
  page: number;
  perPage: number;
}

/** The same page as plain views (PaymentRequestRepository.listViewsForAccount). */
export interface PaymentRequestViewPage {
  items: PaymentRequestView[];
  total: number;
  page: number;
  perPage: number;
}

/** A row of listViewsForAccount as the driver returns it (numeric columns as decimal text, timestamps as PostgreSQL's text). */
interface PaymentRequestViewRow {
  slug: string;
  type: PaymentRequestType;
  title: string;
  description: string | null;
  status: PaymentRequestStatus;
  code: AssetCode;
  chain: Chain;
  address: string;
  amount_requested: string | null;
  amount_paid: string;
  expires_at: string | null;
  paid_at: string | null;
  redirect_url: string | null;
  reference: string | null;
  webhook_url: string | null;
  created_at: string;
}

const viewOfRow = (row: PaymentRequestViewRow): PaymentRequestView => ({
  slug: row.slug,
  type: row.type,
  title: row.title,
  description: row.description,
  status: row.status,
  asset: { code: row.code, chain: row.chain },
  address: row.address,
  amountRequested: row.amount_requested === null ? null : Amount.fromDecimalString(row.amount_requested),
  amountPaid: Amount.fromDecimalString(row.amount_paid),
  // Parsed as MikroORM parses them for an entity (Platform.parseDate), so both paths show the same instant.
  expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
  paidAt: row.paid_at === null ? null : new Date(row.paid_at),
  redirectUrl: row.redirect_url,
  reference: row.reference,
  webhookUrl: row.webhook_url,
  createdAt: new Date(row.created_at),
});

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

/** Newest first: created_at, then id, both descending. */
const LIST_ORDER = { createdAt: 'desc', id: 'desc' } as const;

/** One account's requests, narrowed by the list's optional filters. */
function listWhere(accountId: number, filter: PaymentRequestListFilter, now: Date): FilterQuery<PaymentRequest> {
  const where: FilterQuery<PaymentRequest>[] = [{ account: accountId }];
  if (filter.status !== undefined) where.push(reportedStatusWhere(filter.status, now));
  if (filter.reference !== undefined) where.push({ reference: filter.reference });
  return { $and: where };
}

/**
 * Queries of payment requests; every read populates the asset (code, chain) the object shows. Taken from a transaction's
 * EntityManager (`tx.getRepository(PaymentRequest)`), its locks are held until that transaction ends.
 */
export class PaymentRequestRepository extends EntityRepository<PaymentRequest> {
  /** One account's requests, newest first (created_at, then id, both descending), optionally filtered. */
  async listForAccount(accountId: number, paging: { page: number; perPage: number }, filter: PaymentRequestListFilter, now: Date): Promise<PaymentRequestPage> {
    const { page, perPage } = paging;
    const [items, total] = await this.findAndCount(listWhere(accountId, filter, now), {
      populate: ['asset'],
      orderBy: LIST_ORDER,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return { items, total, page, perPage };
  }

  /**
   * The same page as listForAccount, read as plain rows with the asset's code and chain joined, for an answer that only
   * presents it (the REST list): no entity is hydrated or managed (they were some 40 % of the list's CPU).
   */
  async listViewsForAccount(accountId: number, paging: { page: number; perPage: number }, filter: PaymentRequestListFilter, now: Date): Promise<PaymentRequestViewPage> {
    const { page, perPage } = paging;
    const where = listWhere(accountId, filter, now);
    const rows = this.createQueryBuilder('r')
      .select(['r.slug', 'r.type', 'r.title', 'r.description', 'r.status', 'r.address', 'r.amountRequested', 'r.amountPaid', 'r.expiresAt', 'r.paidAt', 'r.redirectUrl', 'r.reference', 'r.webhookUrl', 'r.createdAt'])
      .join('r.asset', 'a')
      .addSelect(['a.code', 'a.chain'])
      // The entity filter the find above takes; the builder's own filter type cannot see it is one.
      .where(where as QBFilterQuery<PaymentRequest>)
      .orderBy(LIST_ORDER)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute<PaymentRequestViewRow[]>('all', false);
    const [found, total] = await Promise.all([rows, this.count(where)]);
    return { items: found.map(viewOfRow), total, page, perPage };
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
