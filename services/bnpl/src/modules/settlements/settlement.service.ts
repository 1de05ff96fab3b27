import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  NotFoundError,
  ValidationError,
  afterCommitAll,
  decodeKeysetCursor,
  enqueueWorkflowStart,
  integerRangeMessage,
  keysetPage,
  lockIdempotencyKey,
  transactionWithAfterCommit,
  type AfterCommit,
  type WorkflowOutbox,
  isUuid,
} from '@tributary/kit';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant, type SettlementCadence } from '../merchants/index.js';
import { groupByBatch, unsettledBefore, type Candidate } from './settlement-candidates.js';
import { applyPayout, batchName, closedPeriod, periodBounds, periodEndsBetween, saleMdrCents, settlementNet, type SettlementPeriod } from './settlement-period.js';
import { settlementPayoutStart } from './settlement-payout.commands.js';
import { Settlement, SettlementAdjustment, SettlementLine } from './settlement.entity.js';

export const SETTLEMENTS_PAGE_DEFAULT = 25;
export const SETTLEMENTS_PAGE_MAX = 100;

/** settlement.processed's data: exactly the spec's keys. */
export interface SettlementProcessedData {
  settlement_id: string;
  batch: string;
  gross_cents: number;
  mdr_cents: number;
  net_cents: number;
  currency: string;
}

/** How a paid batch is announced (the webhooks module's emitter; the service does not know about endpoints). */
export interface SettlementEventSink {
  settlementProcessed(tx: EntityManager, merchantId: string, settlementId: string, data: SettlementProcessedData): Promise<AfterCommit | undefined>;
}

export interface SettlementServiceOptions {
  outbox?: WorkflowOutbox | undefined;
  events?: SettlementEventSink;
  now?: () => Date;
}

/** A batch with the lines it covers (GET /settlements/{id}). */
export interface SettlementWithLines {
  settlement: Settlement;
  lines: SettlementLine[];
}

/**
 * Settlements (spec "Settlement (payout)"): the one path for REST, GraphQL, the operator commands and the settlement
 * workflows' activities. Cuts are idempotent per merchant, period, currency and mode; every sale, refund and adjustment
 * lands in exactly one batch.
 */
export class SettlementService {
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    private readonly options: SettlementServiceOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Ids of the merchants on `cadence` (the cycle workflow's first step). */
  async merchantsOnCadence(cadence: SettlementCadence): Promise<string[]> {
    return (await this.em.find(Merchant, { settlementCadence: cadence }, { fields: ['id'], orderBy: { id: 'asc' } })).map((merchant) => merchant.id);
  }

  /**
   * Cuts the merchant's batches for the period its cadence closed at `at`: one per currency and mode with anything to
   * settle, each queueing its payout workflow. A batch already cut for that period is left as it is (re-running a
   * period creates nothing); concurrent cuts of one merchant queue behind a lock.
   */
  async cut(merchantId: string, at: Date, options: { livemode?: boolean } = {}): Promise<Settlement[]> {
    return transactionWithAfterCommit<Settlement[]>(this.em, async (tx) => {
      await lockIdempotencyKey(tx, 'bnpl:settlement-cut', merchantId);
      const merchant = await tx.findOne(Merchant, { id: merchantId });
      if (!merchant) throw new NotFoundError(`merchant ${merchantId}`);
      const period = closedPeriod(merchant.settlementCadence, at);
      const candidates = await unsettledBefore(tx, merchantId, periodBounds(period).to, options.livemode);
      const cut: Settlement[] = [];
      for (const group of groupByBatch(candidates)) {
        const batch = batchName(period, group.currency, group.livemode);
        if (await tx.count(Settlement, { merchant: merchantId, batch })) continue;
        cut.push(await this.createBatch(tx, merchant, period, batch, group));
      }
      await tx.flush();
      const starts = await Promise.all(cut.map((settlement) => enqueueWorkflowStart(tx, settlementPayoutStart(settlement))));
      return { result: cut, afterCommit: this.options.outbox?.dispatchAfterCommit(starts) };
    });
  }

  /**
   * A test clock moved from `from` to `to`: cuts the merchant's test-mode batches of every period that closed in
   * between, one period at a time, as the Schedule would have on those days. Live mode is never touched.
   */
  async cutTestModeBetween(merchantId: string, from: Date, to: Date): Promise<Settlement[]> {
    const merchant = await this.em.findOne(Merchant, { id: merchantId });
    if (!merchant) throw new NotFoundError(`merchant ${merchantId}`);
    const cut: Settlement[] = [];
    for (const end of periodEndsBetween(merchant.settlementCadence, from, to)) cut.push(...(await this.cut(merchantId, end, { livemode: false })));
    return cut;
  }

  /** The payout: pending → paid and settlement.processed in one transaction; a paid batch is returned unchanged. */
  async payOut(settlementId: string): Promise<Settlement> {
    return transactionWithAfterCommit<Settlement>(this.em, async (tx) => {
      const settlement = await tx.findOne(Settlement, { id: settlementId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!settlement) throw new NotFoundError(`settlement ${settlementId}`);
      const step = applyPayout(settlement.status);
      if (!step.ok) return { result: settlement };
      settlement.status = step.status;
      settlement.paidAt = this.now();
      await tx.flush();
      const announce = await this.options.events?.settlementProcessed(tx, settlement.merchant.id, settlement.id, settlementProcessedData(settlement));
      return { result: settlement, afterCommit: afterCommitAll(announce) };
    });
  }

  /** An operator's adjustment to the merchant's next batch in `currency` and mode (`admin bnpl adjust`). */
  async adjust(merchantId: string, adjustment: { amountCents: number; currency: string; livemode: boolean; reason: string }): Promise<SettlementAdjustment> {
    const problems: Record<string, string[]> = {};
    if (!Number.isSafeInteger(adjustment.amountCents) || adjustment.amountCents === 0 || Math.abs(adjustment.amountCents) > 2_147_483_647) problems['amount_cents'] = ['Must be a non-zero integer (cents).'];
    if (!/^[A-Z]{3}$/.test(adjustment.currency)) problems['currency'] = ['Must be an ISO 4217 code in upper case.'];
    const reason = adjustment.reason.trim();
    if (reason.length === 0 || reason.length > 500) problems['reason'] = ['Must be 1 to 500 characters.'];
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
    if (!(await this.em.count(Merchant, { id: merchantId }))) throw new NotFoundError(`merchant ${merchantId}`);
    const em = this.em.fork();
    const created = em.create(SettlementAdjustment, { merchant: merchantId, livemode: adjustment.livemode, currency: adjustment.currency, amountCents: adjustment.amountCents, reason, createdAt: this.now() });
    await em.flush();
    return created;
  }

  /** The merchant's batches, newest first, a page at a time (`page` = the previous page's next_cursor). */
  async list(principal: BnplPrincipal, options: { page?: string | undefined; limit?: number | undefined }): Promise<{ settlements: Settlement[]; nextCursor: string | null }> {
    const merchantId = dashboardMerchantId(principal, 'Settlements');
    const limit = options.limit ?? SETTLEMENTS_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > SETTLEMENTS_PAGE_MAX) throw new ValidationError({ limit: [integerRangeMessage(1, SETTLEMENTS_PAGE_MAX)] });
    const after = options.page === undefined ? undefined : decodeKeysetCursor(options.page, 'page');
    const { items, nextCursor } = keysetPage(await this.em.getRepository(Settlement).page(merchantId, after, limit), limit);
    return { settlements: items, nextCursor };
  }

  /** One of the merchant's batches with its lines; another merchant's, unknown or malformed: 404. */
  async get(principal: BnplPrincipal, id: string): Promise<SettlementWithLines> {
    const merchantId = dashboardMerchantId(principal, 'Settlements');
    const settlement = isUuid(id) ? await this.em.findOne(Settlement, { id, merchant: merchantId }) : null;
    if (!settlement) throw new NotFoundError(`settlement ${id.slice(0, 40)}`);
    return { settlement, lines: await this.linesOf(settlement.id) };
  }

  linesOf(settlementId: string): Promise<SettlementLine[]> {
    return this.em.find(SettlementLine, { settlement: settlementId }, { populate: ['loan', 'refund', 'adjustment'], orderBy: { kind: 'asc', id: 'asc' } });
  }

  private async createBatch(tx: EntityManager, merchant: Merchant, period: SettlementPeriod, batch: string, group: { currency: string; livemode: boolean; items: Candidate[] }): Promise<Settlement> {
    const sum = (kind: Candidate['kind']) => group.items.filter((item) => item.kind === kind).reduce((total, item) => total + item.amountCents, 0);
    const mdrOf = (item: Candidate) => (item.kind === 'sale' ? saleMdrCents(item.amountCents, merchant.mdrBps, group.livemode) : 0);
    const figures = { grossCents: sum('sale'), mdrCents: group.items.reduce((total, item) => total + mdrOf(item), 0), refundsCents: 0 - sum('refund'), adjustmentsCents: sum('adjustment') };
    const settlement = tx.create(Settlement, {
      merchant,
      livemode: group.livemode,
      batch,
      cadence: merchant.settlementCadence,
      periodStart: period.start,
      periodEnd: period.end,
      currency: group.currency,
      mdrBps: group.livemode ? merchant.mdrBps : 0,
      ...figures,
      netCents: settlementNet(figures),
      status: 'pending',
      paidAt: null,
      createdAt: this.now(),
      updatedAt: this.now(),
    });
    for (const item of group.items) {
      tx.create(SettlementLine, {
        settlement,
        kind: item.kind,
        loan: item.kind === 'sale' ? item.id : null,
        refund: item.kind === 'refund' ? item.id : null,
        adjustment: item.kind === 'adjustment' ? item.id : null,
        amountCents: item.amountCents,
        mdrCents: mdrOf(item),
      });
    }
    return settlement;
  }
}

export function settlementProcessedData(settlement: Settlement): SettlementProcessedData {
  return {
    settlement_id: settlement.id,
    batch: settlement.batch,
    gross_cents: settlement.grossCents,
    mdr_cents: settlement.mdrCents,
    net_cents: settlement.netCents,
    currency: settlement.currency,
  };
}
