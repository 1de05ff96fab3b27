// The one way a confirmed on-chain payment enters the gateway (today: the operator's `pay` command; later: chain
// watchers). Idempotent on (chain, txid, output index); a payment below its asset's confirmation threshold is
// recorded but not counted, and counts when it is reported again with enough confirmations.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '@tributary/kit';
import { Amount } from '../../money/index.js';
import type { Asset } from '../assets/asset.entity.js';
import { CHAINS, type Chain } from '../assets/asset-table.js';
import { domainEvents, noPaymentEvents, runAfterCommit, type AfterCommit, type PaymentDomainEvent, type PaymentEventSink } from '../payment-requests/payment-request.events.js';
import type { PaymentRequest } from '../payment-requests/payment-request.entity.js';
import { PaymentRequestRepository } from '../payment-requests/payment-request.repository.js';
import { noInvoiceScheduler, type InvoiceExpiryScheduler } from '../invoice-workflow/invoice-scheduler.js';
import { applyPayment } from '../payment-requests/status-engine.js';
import { Payment } from './payment.entity.js';

export const TXID_PATTERN = /^[A-Za-z0-9]{1,128}$/;

export interface IncomingPayment {
  chain: Chain;
  /** Transaction id (hex on every supported chain; any [A-Za-z0-9]{1,128} is accepted). */
  txid: string;
  /** Output index (bitcoin, litecoin) or log index (ethereum, polygon). */
  index: number;
  /** Decimal string (or Amount) in whole coins, positive, within the asset's decimals. */
  amount: string | Amount;
  confirmations: number;
  /**
   * Which request it pays: its receive `address` (what a chain watcher sees) or its public `slug` (the operator
   * command). The address is looked up on `chain`; a legacy address shared by several requests (flagged
   * `address_conflict`, made before keys had owners) is refused: record those by slug.
   */
  to: { address: string } | { slug: string };
}

export interface RecordedPayment {
  payment: Payment;
  paymentRequest: PaymentRequest;
  /** True when this call added the payment to amount_paid. */
  credited: boolean;
  /** True when (chain, txid, index) had been recorded before (nothing new was credited by a repeat of a counted one). */
  duplicate: boolean;
  /** Events that occurred (payment.paid / payment.late / payment.expired), already handed to the event sink. */
  events: PaymentDomainEvent[];
}

export interface PaymentServiceOptions {
  events?: PaymentEventSink;
  now?: () => Date;
  /** Ends an invoice's expiry workflow once it is paid in full (after commit); default none. */
  scheduler?: InvoiceExpiryScheduler;
}

export class PaymentService {
  private readonly events: PaymentEventSink;
  private readonly now: () => Date;
  private readonly scheduler: InvoiceExpiryScheduler;

  constructor(
    private readonly em: EntityManager,
    options: PaymentServiceOptions = {},
  ) {
    this.events = options.events ?? noPaymentEvents;
    this.now = options.now ?? (() => new Date());
    this.scheduler = options.scheduler ?? noInvoiceScheduler;
  }

  /**
   * Records an incoming payment in one transaction: the request row is locked (`FOR UPDATE`), the payment row is
   * inserted or, for a repeat, locked and its confirmations raised; once counted its amount goes into the request
   * through the status engine (amount_paid, status, paid_at) and the resulting events go to the event sink.
   * Throws ValidationError (bad input), NotFoundError (no such request), ConflictError (same chain/txid/index with a
   * different amount or request, or an ambiguous address), BusinessRuleError (chain differs from the request's).
   */
  async record(input: IncomingPayment): Promise<RecordedPayment> {
    const { chain, txid, index, confirmations } = input;
    const fields: Record<string, string[]> = {};
    if (!(CHAINS as readonly string[]).includes(chain)) fields.chain = [`Must be one of ${CHAINS.join(', ')}.`];
    if (typeof txid !== 'string' || !TXID_PATTERN.test(txid)) fields.txid = ['Must be 1 to 128 letters or digits.'];
    if (!Number.isSafeInteger(index) || index < 0 || index > 2_147_483_647) fields.index = ['Must be a whole number from 0.'];
    if (!Number.isSafeInteger(confirmations) || confirmations < 0 || confirmations > 2_147_483_647) fields.confirmations = ['Must be a whole number from 0.'];
    let amount: Amount | undefined;
    if (input.amount instanceof Amount) {
      if (input.amount.isPositive()) amount = input.amount;
      else fields.amount = ['The amount must be greater than zero.'];
    } else {
      const parsed = Amount.safeParse(input.amount, { positive: true });
      if (parsed.ok) amount = parsed.amount;
      else fields.amount = [parsed.error.message];
    }
    if (Object.keys(fields).length > 0 || !amount) throw new ValidationError(fields);

    let afterCommit: AfterCommit | void = undefined;
    const recorded = await this.em.transactional(async (tx) => {
      const requests = new PaymentRequestRepository(tx);
      const request = await this.lockTarget(requests, chain, input.to);
      const asset: Asset = request.asset;
      if (asset.chain !== chain) {
        throw new BusinessRuleError(`The payment request is paid in ${asset.code} on ${asset.chain}, not on ${chain}.`, { chain: [`Must be ${asset.chain}.`] });
      }
      if (!asset.fits(amount)) {
        throw new ValidationError({ amount: [`The amount must not have more than ${asset.decimals} decimal places (the precision of ${asset.code}).`] });
      }
      const now = this.now();
      const counts = asset.isConfirmed(confirmations);
      const connection = tx.getConnection();
      const inserted = await connection.execute<Array<{ id: number }>>(
        `insert into "payments" ("payment_request_id", "chain", "txid", "output_index", "address", "amount", "confirmations", "counted", "counted_at", "created_at", "updated_at")
         values (?, ?, ?, ?, ?, ?, ?, false, null, ?, ?)
         on conflict ("chain", "txid", "output_index") do nothing returning "id"`,
        [request.id, chain, txid, index, request.address, amount.toString(), confirmations, now, now],
        'all',
        tx.getTransactionContext(),
      );
      const duplicate = inserted.length === 0;
      const payment = duplicate
        ? await tx.findOneOrFail(Payment, { chain, txid, outputIndex: index }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
        : await tx.findOneOrFail(Payment, { id: inserted[0]!.id });
      if (duplicate) {
        if (payment.paymentRequest.id !== request.id || !payment.value.equals(amount)) {
          throw new ConflictError(`Payment ${chain}/${txid}/${index} was already recorded with a different amount or request.`);
        }
        if (confirmations > payment.confirmations) payment.confirmations = confirmations;
      }
      let events: PaymentDomainEvent[] = [];
      const credit = !payment.counted && (counts || asset.isConfirmed(payment.confirmations));
      if (credit) {
        payment.counted = true;
        payment.countedAt = now;
        const transition = applyPayment(request.toState(), amount, now);
        request.applyState(transition.state);
        events = domainEvents(request, transition.events, now);
      }
      await tx.flush();
      if (events.length > 0) afterCommit = await this.events.emit(tx, request, events);
      return { payment, paymentRequest: request, credited: credit, duplicate, events };
    });
    await runAfterCommit(afterCommit);
    // Settled (payment.paid on an invoice): its expiry workflow has nothing left to do (never throws).
    if (recorded.paymentRequest.type === 'invoice' && recorded.events.some((e) => e.event === 'payment.paid')) {
      await this.scheduler.invoiceSettled(recorded.paymentRequest.slug);
    }
    return recorded;
  }

  /** Payments recorded for a request, oldest first. */
  listFor(paymentRequestId: number): Promise<Payment[]> {
    return this.em.find(Payment, { paymentRequest: paymentRequestId }, { orderBy: { id: 'asc' } });
  }

  private async lockTarget(requests: PaymentRequestRepository, chain: Chain, to: IncomingPayment['to']): Promise<PaymentRequest> {
    if ('slug' in to) {
      const request = await requests.findBySlug(to.slug, true);
      if (!request) throw new NotFoundError(`payment request slug ${to.slug}`);
      return request;
    }
    const matches = await requests.findByAddress(chain, to.address);
    if (matches.length === 0) throw new NotFoundError(`payment request for address ${to.address}`);
    if (matches.length > 1) throw new ConflictError(`Address ${to.address} belongs to ${matches.length} payment requests; record by slug.`);
    const locked = await requests.lockById(matches[0]!.id);
    if (!locked) throw new NotFoundError(`payment request for address ${to.address}`);
    return locked;
  }
}
