import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BusinessRuleError,
  NotFoundError,
  afterCommitAll,
  enqueueWorkflowSignal,
  enqueueWorkflowStart,
  randomChars,
  tokenPattern,
  transactionWithAfterCommit,
  type AfterCommit,
  type OutboxEntryRef,
  type TokenFormat,
  type WorkflowOutbox,
} from '@tributary/kit';
import { INVOICE_SIGNALS } from '@tributary/workflows';
import { Amount } from '../../money/index.js';
import type { CryptoPrincipal } from '../accounts/index.js';
import { Asset } from '../assets/index.js';
import { invoiceExpirySignal, invoiceExpiryStart } from '../invoice-workflow/index.js';
import { DEFAULT_CHAIN_NETWORK, allocateReceiveAddress, type ChainNetwork } from '../receive-addresses/index.js';
import { domainEvents, noPaymentEvents, type PaymentDomainEvent, type PaymentEventSink } from './payment-request.events.js';
import { PaymentRequest } from './payment-request.entity.js';
import { createFingerprint, idempotencyKeyReused, lockIdempotencyKey, parseIdempotencyKey } from './payment-request.idempotency.js';
import type { PaymentRequestPage, PaymentRequestViewPage } from './payment-request.repository.js';
import { validateListQuery, validateNewPaymentRequest, type NewPaymentRequest, type PaymentRequestDraft, type PaymentRequestListQuery } from './payment-request.validation.js';
import { SETTLED_CANCEL_MESSAGE, applyCancel, applyExpiry, settledCancelFieldErrors } from './status-engine.js';

/** Length of the public slug: 24 characters of [A-Za-z0-9] ≈ 142.9 bits from a CSPRNG (spec: random, non-sequential). */
export const SLUG_FORMAT = { prefix: '', alphabet: 'alphanumeric', length: 24 } as const satisfies TokenFormat;
export const SLUG_LENGTH = SLUG_FORMAT.length;
export const SLUG_PATTERN = tokenPattern(SLUG_FORMAT);

export interface PaymentRequestServiceOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_HOSTS`: hosts/CIDRs exempted from the public-address rule of webhook_url/redirect_url. */
  allowPrivateHosts?: readonly string[];
  /** Where expiry events go (see payment-request.events.ts). */
  events?: PaymentEventSink;
  /**
   * Dispatches a change's workflow commands (the invoice expiry workflow's start and signals) right after its commit.
   * Without one they stay queued in the outbox until the worker's sweeper dispatches them.
   */
  outbox?: WorkflowOutbox;
  /** CRYPTO_NETWORK: the network new requests' addresses are derived for and recorded on (default testnet). */
  network?: ChainNetwork;
  /** The clock (tests). */
  now?: () => Date;
}

/** What a create produced: the request, and whether it already existed under the same Idempotency-Key. */
export interface PaymentRequestCreation {
  paymentRequest: PaymentRequest;
  /** True when an earlier create with the same key and body made it; nothing new was created. */
  replayed: boolean;
}

export interface PaymentRequestChange {
  paymentRequest: PaymentRequest;
  events: PaymentDomainEvent[];
}

/** An idempotent create's key and the fingerprint of its body; both absent for a create without a key. */
interface Idempotency {
  key: string | null;
  fingerprint: string | null;
}

/** Internal ids are positive 32-bit integers; anything else is simply not found. */
function parseInternalId(id: string | number): number | null {
  const text = String(id);
  if (!/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= 2_147_483_647 ? value : null;
}

/**
 * The payment request domain: one path for REST and GraphQL. Merchant operations take the authenticated principal
 * and only ever see the principal's own requests (anything else is the same NotFoundError).
 */
export class PaymentRequestService {
  private readonly allowPrivateHosts: readonly string[];
  private readonly events: PaymentEventSink;
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly network: ChainNetwork;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: PaymentRequestServiceOptions = {},
  ) {
    this.allowPrivateHosts = options.allowPrivateHosts ?? [];
    this.events = options.events ?? noPaymentEvents;
    this.outbox = options.outbox;
    this.network = options.network ?? DEFAULT_CHAIN_NETWORK;
    this.now = options.now ?? (() => new Date());
  }

  clock(): Date {
    return this.now();
  }

  /** The network this gateway runs on (a request made on another one can no longer be paid: hosted page, payments). */
  currentNetwork(): ChainNetwork {
    return this.network;
  }

  /**
   * Creates an invoice or a donation link with a fresh receive address, after checking every field (all problems in one
   * 422). With an Idempotency-Key already used by this account: the same (normalised) body returns the earlier request
   * (`replayed`), another body is a 422 on the key. Refused creates are not remembered, so a corrected retry succeeds.
   * An invoice's expiry workflow is started through the outbox: the create never waits on Temporal.
   */
  async create(principal: CryptoPrincipal, draft: PaymentRequestDraft, options: { idempotencyKey?: unknown } = {}): Promise<PaymentRequestCreation> {
    const { key, fields } = parseIdempotencyKey(options.idempotencyKey);
    const request = await validateNewPaymentRequest(draft, { findAsset: (id) => this.em.getRepository(Asset).findOne({ id }), allowPrivateHosts: this.allowPrivateHosts, fields });
    const idempotency: Idempotency = { key: key ?? null, fingerprint: key === undefined ? null : createFingerprint(request) };
    return transactionWithAfterCommit<PaymentRequestCreation>(this.em, async (tx) => {
      const earlier = await this.earlierCreate(tx, principal, idempotency);
      if (earlier) return { result: { paymentRequest: earlier, replayed: true } };
      const created = await this.insert(tx, principal, request, idempotency);
      const expiry = created.type === 'invoice' ? await enqueueWorkflowStart(tx, invoiceExpiryStart({ ...created, expiresAt: created.expiresAt! })) : undefined;
      return { result: { paymentRequest: created, replayed: false }, afterCommit: this.dispatch([expiry]) };
    });
  }

  /** The caller's requests, newest first; per_page 1..100 (default 25), page from 1 (default 1); bad values 422. */
  async list(principal: CryptoPrincipal, query: PaymentRequestListQuery): Promise<PaymentRequestPage> {
    const { page, perPage, status, reference } = validateListQuery(query);
    return this.em.getRepository(PaymentRequest).listForAccount(principal.accountId, { page, perPage }, { status, reference }, this.now());
  }

  /** The same page as list, as plain views for an answer that only presents them (REST). */
  async listViews(principal: CryptoPrincipal, query: PaymentRequestListQuery): Promise<PaymentRequestViewPage> {
    const { page, perPage, status, reference } = validateListQuery(query);
    return this.em.getRepository(PaymentRequest).listViewsForAccount(principal.accountId, { page, perPage }, { status, reference }, this.now());
  }

  /** The caller's request by internal id; another account's or unknown: NotFoundError (404). */
  async get(principal: CryptoPrincipal, id: string | number): Promise<PaymentRequest> {
    const request = await this.findVisible(principal, String(id));
    if (!request) throw new NotFoundError(`payment request ${String(id)}`);
    return request;
  }

  /** Entity resolution: the caller's own request, else null. */
  async findVisible(principal: CryptoPrincipal, id: string): Promise<PaymentRequest | null> {
    const internalId = parseInternalId(id);
    return internalId === null ? null : this.em.getRepository(PaymentRequest).findOwned(principal.accountId, internalId);
  }

  /**
   * Cancels an unsettled request (pending, partial or expired) under a row lock and ends an invoice's expiry workflow.
   * A deadline that passed before the expiry was stored is stored first (expired, payment.expired queued once, in this
   * transaction), so the cancel answers as for an expired request. Settled (paid, overpaid): BusinessRuleError 422
   * "A settled request cannot be cancelled." with `errors.status`; already cancelled: returned unchanged.
   */
  async cancel(principal: CryptoPrincipal, id: string | number): Promise<PaymentRequest> {
    const internalId = parseInternalId(id);
    if (internalId === null) throw new NotFoundError(`payment request ${String(id)}`);
    return transactionWithAfterCommit(this.em, async (tx) => {
      const request = await tx.getRepository(PaymentRequest).findOwned(principal.accountId, internalId, true);
      if (!request) throw new NotFoundError(`payment request ${internalId}`);
      if (request.status === 'cancelled') return { result: request };
      const now = this.now();
      const expiry = await this.storeExpiry(tx, request, now);
      const outcome = applyCancel(request.toState());
      if (!outcome.ok) throw new BusinessRuleError(SETTLED_CANCEL_MESSAGE, settledCancelFieldErrors(request.status));
      request.applyState(outcome.state);
      request.cancelledAt = now;
      await tx.flush();
      const endExpiry = request.type === 'invoice' ? await enqueueWorkflowSignal(tx, invoiceExpirySignal(request, INVOICE_SIGNALS.cancelled)) : undefined;
      return { result: request, afterCommit: afterCommitAll(expiry.afterCommit, this.dispatch([endExpiry])) };
    });
  }

  /** The public payer view by slug: unknown or cancelled -> NotFoundError (404). */
  async findPublic(slug: string): Promise<PaymentRequest> {
    const request = SLUG_PATTERN.test(slug) ? await this.em.getRepository(PaymentRequest).findBySlug(slug) : null;
    if (!request || request.status === 'cancelled') throw new NotFoundError(`payment request slug ${slug.slice(0, 40)}`);
    return request;
  }

  /**
   * Hook for the invoice-expiry workflow: stores `expired` for a pending/partial invoice whose deadline has passed
   * (under a row lock) and returns the payment.expired event it caused — none when it is not due, already
   * expired, settled or cancelled, so running it twice is harmless.
   */
  async expireIfDue(paymentRequestId: number): Promise<PaymentRequestChange> {
    return transactionWithAfterCommit(this.em, async (tx) => {
      const request = await tx.getRepository(PaymentRequest).lockById(paymentRequestId);
      if (!request) throw new NotFoundError(`payment request ${paymentRequestId}`);
      const { events, afterCommit } = await this.storeExpiry(tx, request, this.now());
      return { result: { paymentRequest: request, events }, afterCommit };
    });
  }

  /**
   * Stores `expired` on a locked pending/partial invoice whose deadline has passed at `now` and hands payment.expired to
   * the event sink in the caller's transaction; nothing (no events) when it is not due.
   */
  private async storeExpiry(tx: EntityManager, request: PaymentRequest, now: Date): Promise<{ events: PaymentDomainEvent[]; afterCommit: AfterCommit | undefined }> {
    const transition = applyExpiry(request.toState(), now);
    if (transition.events.length === 0) return { events: [], afterCommit: undefined };
    request.applyState(transition.state);
    await tx.flush();
    const events = domainEvents(request, transition.events, now);
    return { events, afterCommit: await this.events.emit(tx, request, events) };
  }

  /**
   * The request an earlier create with this Idempotency-Key made, when the body is the same; a different body is a 422.
   * Holds a transaction-scoped lock on (account, key), so a concurrent retry waits for the first attempt.
   */
  private async earlierCreate(tx: EntityManager, principal: CryptoPrincipal, { key, fingerprint }: Idempotency): Promise<PaymentRequest | null> {
    if (key === null) return null;
    await lockIdempotencyKey(tx, principal.accountId, key);
    const earlier = await tx.getRepository(PaymentRequest).findByIdempotencyKey(principal.accountId, key);
    if (earlier && earlier.idempotencyFingerprint !== fingerprint) throw idempotencyKeyReused();
    return earlier;
  }

  /** Stores the request with the next receive address of the account's key for its asset (in the same transaction). */
  private async insert(tx: EntityManager, principal: CryptoPrincipal, request: NewPaymentRequest, idempotency: Idempotency): Promise<PaymentRequest> {
    const now = this.now();
    const allocated = await allocateReceiveAddress(tx, this.network, principal.accountId, request.asset.code);
    const created = tx.create(PaymentRequest, {
      slug: randomChars(SLUG_LENGTH),
      account: principal.accountId,
      asset: request.asset,
      type: request.type,
      status: 'pending',
      title: request.title,
      description: request.description,
      reference: request.reference,
      chain: request.asset.chain,
      address: allocated.address,
      network: this.network,
      addressIndex: allocated.index,
      amountRequested: request.amount,
      amountPaid: Amount.ZERO,
      expiresAt: request.ttlMinutes === null ? null : new Date(now.getTime() + request.ttlMinutes * 60_000),
      paidAt: null,
      cancelledAt: null,
      webhookUrl: request.webhookUrl,
      redirectUrl: request.redirectUrl,
      idempotencyKey: idempotency.key,
      idempotencyFingerprint: idempotency.fingerprint,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return created;
  }

  private dispatch(entries: ReadonlyArray<OutboxEntryRef | undefined>): AfterCommit | undefined {
    return this.outbox?.dispatchAfterCommit(entries);
  }
}
