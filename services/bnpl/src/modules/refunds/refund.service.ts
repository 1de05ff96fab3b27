import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
  checkInput,
  decodeKeysetCursor,
  enqueueWorkflowStart,
  integerRangeMessage,
  idempotencyFingerprint,
  idempotencyKeyReused,
  keysetPage,
  lockIdempotencyKey,
  parseIdempotencyKey,
  transactionWithAfterCommit,
  type AfterCommit,
  type OutboxEntryRef,
  type WorkflowOutbox,
  isUuid,
} from '@tributary/kit';
import { Installment, Loan } from '../loans/index.js';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from '../merchants/index.js';
import { allocateRefund, applyRefundStep, isRefundable, refundableCents } from './refund-status-engine.js';
import { Refund } from './refund.entity.js';
import { refundProcessingStart } from './refund-processing.commands.js';
import { simulatedRefundProcessor, type RefundProcessor } from './refund-processor.js';
import { LOAN_ID_FILTER_MESSAGE, REFUNDS_PAGE_DEFAULT, REFUNDS_PAGE_MAX, createRefundInput, type NewRefund, type RefundFilters } from './refund.validation.js';

export const UNKNOWN_LOAN_MESSAGE = 'No sale with this id.';
export const exceedsPrincipalMessage = (refundable: number) => `The refunds of this sale would exceed its principal: ${refundable} cents can still be refunded.`;
export const notRefundableMessage = (status: string) => `A ${status} sale cannot be refunded.`;

export interface RefundServiceOptions {
  /** Dispatches the processing workflow's start right after the commit (else the worker's sweeper does). */
  outbox?: WorkflowOutbox | undefined;
  processor?: RefundProcessor;
  now?: () => Date;
}

/** A create's outcome: the refund, and whether an earlier create with the same Idempotency-Key made it. */
export interface RefundCreation {
  refund: Refund;
  replayed: boolean;
}

/** A page of refunds and the cursor of the next one (null on the last page). */
export interface RefundPage {
  refunds: Refund[];
  nextCursor: string | null;
}

/** What the create is checked under: the draft's fields by their spec names. */
const specFields = (draft: Partial<Record<keyof NewRefund, unknown>>) => ({ loan_id: draft.loanId, amount_cents: draft.amountCents, reason: draft.reason });

/**
 * Refunds (spec "Refund"): the one path for REST, GraphQL and the processing workflow's activities. A merchant sees and
 * refunds only its own sales; the sum of a loan's refunds that have not failed never exceeds its principal, checked
 * under the loan's row lock so concurrent refunds queue behind each other.
 */
export class RefundService {
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly processor: RefundProcessor;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: RefundServiceOptions = {},
  ) {
    this.outbox = options.outbox;
    this.processor = options.processor ?? simulatedRefundProcessor;
    this.now = options.now ?? (() => new Date());
  }

  /** Requests a refund (status requested) and starts its processing workflow after the commit. */
  async create(principal: BnplPrincipal, draft: Partial<Record<keyof NewRefund, unknown>>, options: { idempotencyKey?: unknown } = {}): Promise<RefundCreation> {
    const merchantId = dashboardMerchantId(principal, 'Refunds');
    const input = this.validate(draft, options.idempotencyKey);
    return transactionWithAfterCommit<RefundCreation>(this.em, async (tx) => {
      const earlier = await this.earlierCreate(tx, merchantId, input);
      if (earlier) return { result: { refund: earlier, replayed: true } };
      const loan = await this.lockRefundableLoan(tx, merchantId, input.refund);
      const refund = await this.insert(tx, loan, input);
      const start = await enqueueWorkflowStart(tx, refundProcessingStart({ ...refund, loanNumber: loan.loanNumber }));
      return { result: { refund, replayed: false }, afterCommit: this.dispatch(start) };
    });
  }

  async get(principal: BnplPrincipal, id: string): Promise<Refund> {
    const merchantId = dashboardMerchantId(principal, 'Refunds');
    const refund = isUuid(id) ? await this.em.findOne(Refund, { id, merchant: merchantId }) : null;
    if (!refund) throw new NotFoundError(`refund ${id.slice(0, 40)}`);
    return refund;
  }

  /**
   * The merchant's refunds, newest first, filtered by loan and status, a page at a time (REST parses its query string
   * into these filters with refundFiltersFromQuery; GraphQL passes its arguments).
   */
  async list(principal: BnplPrincipal, filters: RefundFilters): Promise<RefundPage> {
    const merchantId = dashboardMerchantId(principal, 'Refunds');
    const limit = filters.limit ?? REFUNDS_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > REFUNDS_PAGE_MAX) throw new ValidationError({ limit: [integerRangeMessage(1, REFUNDS_PAGE_MAX)] });
    if (filters.loanId !== undefined && !isUuid(filters.loanId)) throw new ValidationError({ loan_id: [LOAN_ID_FILTER_MESSAGE] });
    const after = filters.page === undefined ? undefined : decodeKeysetCursor(filters.page, 'page');
    const rows = await this.em.getRepository(Refund).page({ merchantId, loanId: filters.loanId, status: filters.status, after, limit });
    const { items, nextCursor } = keysetPage(rows, limit);
    return { refunds: items, nextCursor };
  }

  /** The refunds of one loan, oldest first (GraphQL Loan.refunds). */
  ofLoan(loanId: string): Promise<Refund[]> {
    return this.em.getRepository(Refund).ofLoan(loanId);
  }

  /** Workflow step: requested → processing; a refund already past it is returned unchanged. */
  async beginProcessing(refundId: string): Promise<Refund> {
    return this.em.transactional(async (tx) => {
      const refund = await this.lockRefund(tx, refundId);
      const step = applyRefundStep(refund.status, 'begin');
      if (step.ok) refund.status = step.status;
      return refund;
    });
  }

  /**
   * Workflow step: asks the processor to return the money (outside any transaction: no lock is held while it answers),
   * then stores processed (reducing what the shopper owes, under the loan's row lock) or failed. A refund no longer
   * processing (a replayed step) is returned unchanged.
   */
  async complete(refundId: string): Promise<Refund> {
    const refund = await this.em.fork().findOne(Refund, { id: refundId }, { populate: ['loan'] });
    if (!refund) throw new NotFoundError(`refund ${refundId}`);
    if (refund.status !== 'processing') return refund;
    const outcome = await this.processor.refund({ refundId, livemode: refund.livemode, amountCents: refund.amountCents, currency: refund.currency, customerEmail: refund.loan.customerEmail });
    return this.em.transactional(async (tx) => {
      await tx.findOneOrFail(Loan, { id: refund.loan.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const locked = await this.lockRefund(tx, refundId);
      const step = applyRefundStep(locked.status, outcome.ok ? 'succeed' : 'fail');
      if (!step.ok) return locked;
      locked.status = step.status;
      if (outcome.ok) await this.reduceWhatTheShopperOwes(tx, locked);
      else locked.failureReason = outcome.reason;
      return locked;
    });
  }

  private validate(draft: Partial<Record<keyof NewRefund, unknown>>, idempotencyKey: unknown) {
    const { key, fields } = parseIdempotencyKey(idempotencyKey);
    const checked = checkInput(createRefundInput, specFields(draft));
    const problems = { ...fields, ...(checked.success ? {} : checked.fields) };
    if (!checked.success || Object.keys(problems).length > 0) throw new ValidationError(problems);
    const refund: NewRefund = { loanId: checked.data.loan_id, amountCents: checked.data.amount_cents, reason: checked.data.reason };
    return { refund, key: key ?? null, fingerprint: key === undefined ? null : idempotencyFingerprint({ loan_id: refund.loanId, amount_cents: refund.amountCents, reason: refund.reason }) };
  }

  /** The refund an earlier create under the same key made (same body), else null; another body is a 422 on the key. */
  private async earlierCreate(tx: EntityManager, merchantId: string, { key, fingerprint }: { key: string | null; fingerprint: string | null }): Promise<Refund | null> {
    if (key === null) return null;
    await lockIdempotencyKey(tx, `bnpl:refund:${merchantId}`, key);
    const earlier = await tx.getRepository(Refund).byIdempotencyKey(merchantId, key);
    if (earlier && earlier.idempotencyFingerprint !== fingerprint) throw idempotencyKeyReused();
    return earlier;
  }

  /** The merchant's loan under a row lock, checked refundable for this amount; else the 422 / 409 that says why. */
  private async lockRefundableLoan(tx: EntityManager, merchantId: string, refund: NewRefund): Promise<Loan> {
    const loan = await tx.findOne(Loan, { id: refund.loanId, merchant: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!loan) throw new ValidationError({ loan_id: [UNKNOWN_LOAN_MESSAGE] });
    if (!isRefundable(loan.status)) throw new ConflictError(notRefundableMessage(loan.status));
    const refundable = refundableCents(loan.principalCents, await tx.getRepository(Refund).ofLoan(loan.id));
    if (refund.amountCents > refundable) throw new BusinessRuleError(exceedsPrincipalMessage(refundable), { amount_cents: [exceedsPrincipalMessage(refundable)] });
    return loan;
  }

  private async insert(tx: EntityManager, loan: Loan, input: ReturnType<RefundService['validate']>): Promise<Refund> {
    const now = this.now();
    const refund = tx.create(Refund, {
      loan,
      merchant: tx.getReference(Merchant, loan.merchant.id),
      livemode: loan.livemode,
      amountCents: input.refund.amountCents,
      currency: loan.currency,
      reason: input.refund.reason,
      status: 'requested',
      failureReason: null,
      returnedToShopperCents: 0,
      idempotencyKey: input.key,
      idempotencyFingerprint: input.fingerprint,
      processedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return refund;
  }

  private async lockRefund(tx: EntityManager, refundId: string): Promise<Refund> {
    const refund = isUuid(refundId) ? await tx.findOne(Refund, { id: refundId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    if (!refund) throw new NotFoundError(`refund ${refundId.slice(0, 40)}`);
    return refund;
  }

  /** From the last unpaid installment backwards (refund-status-engine allocateRefund); the rest back to the shopper. */
  private async reduceWhatTheShopperOwes(tx: EntityManager, refund: Refund): Promise<void> {
    const installments = await tx.find(Installment, { loan: refund.loan.id });
    const { reductions, returnedToShopperCents } = allocateRefund(
      refund.amountCents,
      installments.map((installment) => ({ id: installment.id, installmentNumber: installment.installmentNumber, amountCents: installment.amountCents, paid: installment.paidAt !== null })),
    );
    const byId = new Map(installments.map((installment) => [installment.id, installment]));
    for (const reduction of reductions) byId.get(reduction.id)!.amountCents = reduction.toCents;
    refund.returnedToShopperCents = returnedToShopperCents;
    refund.processedAt = this.now();
  }

  private dispatch(entry: OutboxEntryRef): AfterCommit | undefined {
    return this.outbox?.dispatchAfterCommit([entry]);
  }
}

