// The one way a confirmed on-chain payment enters the gateway (today: the operator's `pay` command; later: chain
// watchers). Idempotent on (chain, txid, output index); a payment below its asset's confirmation threshold is
// recorded but not counted, and counts when it is reported again with enough confirmations.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
  afterCommitAll,
  enqueueWorkflowSignal,
  enqueueWorkflowStart,
  transactionWithAfterCommit,
  type AfterCommit,
  type FieldErrors,
  type WorkflowOutbox,
} from '@tributary/kit';
import { INVOICE_SIGNALS } from '@tributary/workflows';
import { Amount } from '../../money/index.js';
import { CHAINS, type Asset, type Chain } from '../assets/index.js';
import { invoiceExpirySignal, invoiceReopenedExpiryStart } from '../invoice-workflow/index.js';
import { DEFAULT_CHAIN_NETWORK, type ChainNetwork } from '../receive-addresses/index.js';
import { PaymentRequest, applyPayment, applyReversal, domainEvents, noPaymentEvents, type PaymentDomainEvent, type PaymentEventSink } from '../payment-requests/index.js';
import { Payment } from './payment.entity.js';

export const TXID_PATTERN = /^[A-Za-z0-9]{1,128}$/;

export interface IncomingPayment {
  chain: Chain;
  /** Transaction id (hex on every supported chain; any [A-Za-z0-9]{1,128} is accepted). */
  txid: string;
  /** Output index (bitcoin, litecoin); 0 on ethereum and polygon, the transaction's own value (README Decisions, "EVM watcher"). */
  index: number;
  /** Decimal string (or Amount) in whole coins, positive, within the asset's decimals. */
  amount: string | Amount;
  confirmations: number;
  /** The block it is in (a chain watcher's payment), so later scans can recount its confirmations. */
  block?: { height: number; hash: string };
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

/** What a reorg's undo did (PaymentService.orphanBlocksAbove). */
export interface OrphanedPayments {
  /** Payments whose block left the chain, counted or not. */
  orphaned: number;
  /** Slugs of the requests whose amount_paid went down (a counted payment was taken back). */
  reversed: string[];
}

export interface PaymentServiceOptions {
  events?: PaymentEventSink;
  /** Dispatches the change's workflow commands (an invoice's `settled` signal) right after the commit. */
  outbox?: WorkflowOutbox;
  /** CRYPTO_NETWORK: the network payments are seen on (default testnet); a request made on another never gets one. */
  network?: ChainNetwork;
  now?: () => Date;
}

/** The payment's checked input (amount parsed). Throws ValidationError naming every bad field. */
function validateIncomingPayment(input: IncomingPayment): Amount {
  const { chain, txid, index, confirmations } = input;
  const fields: FieldErrors = {};
  if (!(CHAINS as readonly string[]).includes(chain)) fields.chain = [`Must be one of ${CHAINS.join(', ')}.`];
  if (typeof txid !== 'string' || !TXID_PATTERN.test(txid)) fields.txid = ['Must be 1 to 128 letters or digits.'];
  if (!Number.isSafeInteger(index) || index < 0 || index > 2_147_483_647) fields.index = ['Must be a whole number from 0.'];
  if (!Number.isSafeInteger(confirmations) || confirmations < 0 || confirmations > 2_147_483_647) fields.confirmations = ['Must be a whole number from 0.'];
  if (input.block !== undefined && (!Number.isSafeInteger(input.block.height) || input.block.height < 0 || !TXID_PATTERN.test(input.block.hash))) {
    fields.block = ['Must be a block height from 0 and a block hash of 1 to 128 letters or digits.'];
  }
  const amount = parseAmount(input.amount, fields);
  if (Object.keys(fields).length > 0 || !amount) throw new ValidationError(fields);
  return amount;
}

function parseAmount(value: string | Amount, fields: FieldErrors): Amount | undefined {
  if (value instanceof Amount) {
    if (value.isPositive()) return value;
    fields.amount = ['The amount must be greater than zero.'];
    return undefined;
  }
  const parsed = Amount.safeParse(value, { positive: true });
  if (parsed.ok) return parsed.amount;
  fields.amount = [parsed.error.message];
  return undefined;
}

/** Why a payment seen on `seenOn` cannot count for a request made on `madeOn`. */
export const wrongNetworkMessage = (madeOn: ChainNetwork, seenOn: ChainNetwork): string =>
  `The payment request was made on ${madeOn}; a payment seen on ${seenOn} never counts for it (the same address exists on both).`;

/** The payment must be on the request's chain and network and fit its asset's precision. */
function assertPaysRequest(request: PaymentRequest, network: ChainNetwork, chain: Chain, amount: Amount): void {
  const asset = request.asset as Asset;
  if (request.network !== network) throw new BusinessRuleError(wrongNetworkMessage(request.network, network), { network: [`Must be ${request.network}.`] });
  if (asset.chain !== chain) {
    throw new BusinessRuleError(`The payment request is paid in ${asset.code} on ${asset.chain}, not on ${chain}.`, { chain: [`Must be ${asset.chain}.`] });
  }
  if (!asset.fits(amount)) {
    throw new ValidationError({ amount: [`The amount must not have more than ${asset.decimals} decimal places (the precision of ${asset.code}).`] });
  }
}

/** Marks the payments orphaned (their block kept); returns the amount of those that were counted, to take back. */
function orphan(payments: Payment[], now: Date): Amount {
  let taken = Amount.ZERO;
  for (const payment of payments) {
    if (payment.counted) taken = taken.plus(payment.value);
    Object.assign(payment, { orphanedAt: now, orphanedBlockHash: payment.blockHash, blockHeight: null, blockHash: null, confirmations: 0, counted: false, countedAt: null });
  }
  return taken;
}

export class PaymentService {
  private readonly events: PaymentEventSink;
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly network: ChainNetwork;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: PaymentServiceOptions = {},
  ) {
    this.events = options.events ?? noPaymentEvents;
    this.outbox = options.outbox;
    this.network = options.network ?? DEFAULT_CHAIN_NETWORK;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Records an incoming payment in one transaction: the request row is locked (`FOR UPDATE`), the payment row is
   * inserted or, for a repeat, locked and its confirmations raised; once counted its amount goes into the request
   * through the status engine (amount_paid, status, paid_at), the resulting events go to the event sink, and an invoice
   * paid in full has its expiry workflow ended (through the outbox).
   * Throws ValidationError (bad input), NotFoundError (no such request), ConflictError (same chain/txid/index with a
   * different amount or request, or an ambiguous address), BusinessRuleError (chain or network differs from the request's).
   */
  async record(input: IncomingPayment): Promise<RecordedPayment> {
    const amount = validateIncomingPayment(input);
    return transactionWithAfterCommit(this.em, async (tx) => {
      const request = await this.lockTarget(tx, input.chain, input.to);
      assertPaysRequest(request, this.network, input.chain, amount);
      const now = this.now();
      const { payment, duplicate } = await this.storePayment(tx, request, input, amount, now);
      const { credited, events } = this.creditIfCounted(request, payment, amount, now);
      await tx.flush();
      const paidInvoice = request.type === 'invoice' && events.some((e) => e.event === 'payment.paid');
      const endExpiry = paidInvoice ? await enqueueWorkflowSignal(tx, invoiceExpirySignal(request, INVOICE_SIGNALS.settled)) : undefined;
      const webhooks = events.length > 0 ? await this.events.emit(tx, request, events) : undefined;
      return {
        result: { payment, paymentRequest: request, credited, duplicate, events },
        afterCommit: afterCommitAll(webhooks, this.outbox?.dispatchAfterCommit([endExpiry])),
      };
    });
  }

  /**
   * A reorg replaced the blocks above `forkHeight` on `chain`: every payment found in them (on this network) is
   * orphaned in one transaction — not counted, its block kept as `orphaned_block_hash`, confirmations 0 — and a
   * counted one is taken back from its request through the status engine (applyReversal). A request that reverts
   * past its deadline expires with payment.expired; an invoice opened again within it gets its expiry workflow again.
   * A transaction the new branch mines again is recorded again by the scan (record() finds the orphaned row).
   */
  async orphanBlocksAbove(chain: Chain, forkHeight: number): Promise<OrphanedPayments> {
    return transactionWithAfterCommit(this.em, async (tx) => {
      const now = this.now();
      const outcome: OrphanedPayments = { orphaned: 0, reversed: [] };
      const afterCommit: Array<AfterCommit | undefined> = [];
      // Request first, then its payments: the lock order record() uses, so the two never deadlock.
      for (const requestId of await this.requestsPaidAbove(tx, chain, forkHeight)) {
        const request = await tx.getRepository(PaymentRequest).lockById(requestId);
        if (!request) continue;
        const payments = await tx.find(Payment, { paymentRequest: requestId, chain, blockHeight: { $gt: forkHeight }, orphanedAt: null }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        outcome.orphaned += payments.length;
        const taken = orphan(payments, now);
        if (!taken.isPositive()) continue;
        outcome.reversed.push(request.slug);
        afterCommit.push(...(await this.takeBack(tx, request, taken, payments[0]!.orphanedBlockHash!, now)));
      }
      await tx.flush();
      return { result: outcome, afterCommit: afterCommitAll(...afterCommit) };
    });
  }

  private async requestsPaidAbove(tx: EntityManager, chain: Chain, forkHeight: number): Promise<number[]> {
    const rows = await tx.getConnection().execute<Array<{ id: number }>>(
      `select distinct r."id" from "payments" p join "payment_requests" r on r."id" = p."payment_request_id"
       where p."chain" = ? and p."block_height" > ? and p."orphaned_at" is null and r."network" = ? order by r."id"`,
      [chain, forkHeight, this.network],
      'all',
      tx.getTransactionContext(),
    );
    return rows.map((row) => row.id);
  }

  /** The request's amount_paid goes down through the status engine; its events and, reopened, its expiry again. */
  private async takeBack(tx: EntityManager, request: PaymentRequest, amount: Amount, orphanedBlockHash: string, now: Date): Promise<Array<AfterCommit | undefined>> {
    const reversal = applyReversal(request.toState(), amount, now);
    request.applyState(reversal.state);
    const events = domainEvents(request, reversal.events, now);
    const webhooks = events.length > 0 ? await this.events.emit(tx, request, events) : undefined;
    if (!reversal.reopened || !request.expiresAt) return [webhooks];
    const restart = await enqueueWorkflowStart(tx, invoiceReopenedExpiryStart({ ...request, expiresAt: request.expiresAt }, orphanedBlockHash));
    return [webhooks, this.outbox?.dispatchAfterCommit([restart])];
  }

  /** Payments recorded for a request, oldest first. */
  listFor(paymentRequestId: number): Promise<Payment[]> {
    return this.em.find(Payment, { paymentRequest: paymentRequestId }, { orderBy: { id: 'asc' } });
  }

  /**
   * Inserts the payment, or (a repeat of chain/txid/index) locks the stored one and raises its confirmations. A repeat
   * with another amount or request is a ConflictError.
   */
  private async storePayment(tx: EntityManager, request: PaymentRequest, input: IncomingPayment, amount: Amount, now: Date): Promise<{ payment: Payment; duplicate: boolean }> {
    const { chain, txid, index, confirmations } = input;
    const inserted = await tx.getConnection().execute<Array<{ id: number }>>(
      `insert into "payments" ("payment_request_id", "chain", "txid", "output_index", "address", "amount", "confirmations", "block_height", "block_hash", "counted", "counted_at", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, false, null, ?, ?)
       on conflict ("chain", "txid", "output_index") do nothing returning "id"`,
      [request.id, chain, txid, index, request.address, amount.toString(), confirmations, input.block?.height ?? null, input.block?.hash ?? null, now, now],
      'all',
      tx.getTransactionContext(),
    );
    if (inserted[0]) return { payment: await tx.findOneOrFail(Payment, { id: inserted[0].id }), duplicate: false };
    const payment = await tx.findOneOrFail(Payment, { chain, txid, outputIndex: index }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (payment.paymentRequest.id !== request.id || !payment.value.equals(amount)) {
      throw new ConflictError(`Payment ${chain}/${txid}/${index} was already recorded with a different amount or request.`);
    }
    if (confirmations > payment.confirmations) payment.confirmations = confirmations;
    // Mined (again, after a reorg orphaned its block): it counts from this block now.
    if (input.block && payment.blockHash === null) Object.assign(payment, { blockHeight: input.block.height, blockHash: input.block.hash, orphanedAt: null });
    return { payment, duplicate: true };
  }

  /**
   * Counts the payment once its confirmations reach the asset's threshold (now or, for a repeat, as stored): its amount
   * goes into the request through the status engine. Returns whether it was credited now and the events that occurred.
   */
  private creditIfCounted(request: PaymentRequest, payment: Payment, amount: Amount, now: Date): { credited: boolean; events: PaymentDomainEvent[] } {
    const asset = request.asset as Asset;
    if (payment.counted || !asset.isConfirmed(payment.confirmations)) return { credited: false, events: [] };
    payment.counted = true;
    payment.countedAt = now;
    const transition = applyPayment(request.toState(), amount, now);
    request.applyState(transition.state);
    return { credited: true, events: domainEvents(request, transition.events, now, { txid: payment.txid, outputIndex: payment.outputIndex, amount }) };
  }

  private async lockTarget(tx: EntityManager, chain: Chain, to: IncomingPayment['to']): Promise<PaymentRequest> {
    const requests = tx.getRepository(PaymentRequest);
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
