import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, NotFoundError, UnsafeWebhookUrlError, ValidationError, assertPublicWebhookUrl, issuesToFields, parseInput, randomChars, type FieldErrors } from '@tributary/kit';
import type { z } from 'zod';
import { Amount, amountDecimalsMessage } from '../../money/index.js';
import type { CryptoPrincipal } from '../accounts/account.service.js';
import { AssetService } from '../assets/asset.service.js';
import { noInvoiceScheduler, type InvoiceExpiryScheduler } from '../invoice-workflow/invoice-scheduler.js';
import { allocateReceiveAddress } from '../receive-addresses/index.js';
import { domainEvents, noPaymentEvents, runAfterCommit, type AfterCommit, type PaymentDomainEvent, type PaymentEventSink } from './payment-request.events.js';
import { PaymentRequest } from './payment-request.entity.js';
import { createFingerprint, idempotencyKeyReused, lockIdempotencyKey, parseIdempotencyKey } from './payment-request.idempotency.js';
import { PaymentRequestRepository, type PaymentRequestPage } from './payment-request.repository.js';
import { CREATE_MESSAGES, TTL_MINUTES_DEFAULT, createPaymentRequestBody, listPaymentRequestsQuery } from './payment-request.validation.js';
import { SETTLED_CANCEL_MESSAGE, applyCancel, applyExpiry } from './status-engine.js';

/** Length of the public slug: 24 characters of [A-Za-z0-9] ≈ 142.9 bits from a CSPRNG (spec: random, non-sequential). */
export const SLUG_LENGTH = 24;
export const SLUG_PATTERN = /^[A-Za-z0-9]{24}$/;

export interface PaymentRequestServiceOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_HOSTS`: hosts/CIDRs exempted from the public-address rule of webhook_url/redirect_url. */
  allowPrivateHosts?: readonly string[];
  /** Where expiry events go (see payment-request.events.ts). */
  events?: PaymentEventSink;
  /** The clock (tests). */
  now?: () => Date;
  /** Starts / ends invoice expiry workflows after commit (invoice-workflow module); default none. */
  scheduler?: InvoiceExpiryScheduler;
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

const requiredMessage: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
  private readonly now: () => Date;
  private readonly scheduler: InvoiceExpiryScheduler;

  constructor(
    private readonly em: EntityManager,
    options: PaymentRequestServiceOptions = {},
  ) {
    this.allowPrivateHosts = options.allowPrivateHosts ?? [];
    this.events = options.events ?? noPaymentEvents;
    this.now = options.now ?? (() => new Date());
    this.scheduler = options.scheduler ?? noInvoiceScheduler;
  }

  clock(): Date {
    return this.now();
  }

  /**
   * Validates the create body (every field's problems in one 422) and creates the request with a fresh receive
   * address allocated in the same transaction as the insert.
   */
  async create(principal: CryptoPrincipal, body: unknown): Promise<PaymentRequest> {
    return (await this.createIdempotent(principal, body, undefined)).paymentRequest;
  }

  /**
   * `create` with an optional Idempotency-Key: under a key already used by this account with the same (normalised)
   * body, the earlier request is returned (`replayed`); with a different body, a 422 on the key. Validation runs
   * first and failures are not remembered, so a corrected retry under the same key succeeds.
   */
  async createIdempotent(principal: CryptoPrincipal, body: unknown, rawIdempotencyKey: unknown): Promise<PaymentRequestCreation> {
    const { key: idempotencyKey, fields: keyFields } = parseIdempotencyKey(rawIdempotencyKey);
    // No body reads as an empty object (every required field reported); an array is not a body at all.
    if (body !== undefined && !isRecord(body)) throw new ValidationError({ body: [CREATE_MESSAGES.notAnObject] });
    const fields: FieldErrors = { ...keyFields };
    const result = createPaymentRequestBody.safeParse(body ?? {}, { error: requiredMessage });
    if (!result.success) Object.assign(fields, issuesToFields(result.error.issues, 'body'));
    const raw = isRecord(body) ? body : {};
    const rawType = raw.type == null ? 'invoice' : raw.type;
    if (rawType === 'invoice' && raw.amount == null) fields.amount = [CREATE_MESSAGES.amountRequired];
    if (rawType === 'donation' && raw.amount != null) fields.amount = [CREATE_MESSAGES.donationAmount];

    // Rules that need the database or DNS run on the fields that parsed, so one response names every problem.
    const parsedField = <T>(schema: z.ZodType<T>, key: string): T | undefined => {
      if (fields[key]) return undefined;
      const one = schema.safeParse(raw[key]);
      return one.success ? one.data : undefined;
    };
    const shape = createPaymentRequestBody.shape;
    const assetId = parsedField(shape.asset_id, 'asset_id');
    const asset = assetId === undefined ? null : await new AssetService(this.em).byId(assetId);
    if (assetId !== undefined && !asset) fields.asset_id = [CREATE_MESSAGES.unknownAsset];
    const amount = parsedField(shape.amount, 'amount') as Amount | null | undefined;
    if (asset && amount) {
      const message = amountDecimalsMessage(amount, asset);
      if (message) fields.amount = [message];
    }
    for (const key of ['webhook_url', 'redirect_url'] as const) {
      const url = parsedField(shape[key], key);
      // null/absent: no URL. An empty string is not absent: it is refused like any other non-URL.
      if (url == null) continue;
      try {
        await assertPublicWebhookUrl(url, { allowPrivateHosts: this.allowPrivateHosts, field: key });
      } catch (error) {
        if (!(error instanceof UnsafeWebhookUrlError)) throw error;
        fields[key] = error.fields[key] ?? [error.message];
      }
    }
    if (Object.keys(fields).length > 0 || !result.success || !asset) throw new ValidationError(fields);

    const input = result.data;
    const now = this.now();
    const type = input.type ?? 'invoice';
    const isInvoice = type === 'invoice';
    const ttlMinutes = input.ttl_minutes ?? TTL_MINUTES_DEFAULT;
    const fingerprint =
      idempotencyKey === undefined
        ? null
        : createFingerprint({
            asset_id: asset.id,
            type,
            title: input.title,
            description: input.description,
            amount: isInvoice ? amount?.toString() : null,
            reference: input.reference,
            ttl_minutes: isInvoice ? ttlMinutes : null,
            webhook_url: input.webhook_url,
            redirect_url: input.redirect_url,
          });
    const outcome = await this.em.transactional(async (tx): Promise<PaymentRequestCreation> => {
      if (idempotencyKey !== undefined) {
        await lockIdempotencyKey(tx, principal.accountId, idempotencyKey);
        const earlier = await tx.findOne(PaymentRequest, { account: principal.accountId, idempotencyKey });
        if (earlier) {
          if (earlier.idempotencyFingerprint !== fingerprint) throw idempotencyKeyReused();
          return { paymentRequest: earlier, replayed: true };
        }
      }
      const allocated = await allocateReceiveAddress(tx, principal.accountId, asset.code);
      const request = tx.create(PaymentRequest, {
        slug: randomChars(SLUG_LENGTH),
        account: principal.accountId,
        asset,
        type,
        status: 'pending',
        title: input.title,
        description: input.description ?? null,
        reference: input.reference ?? null,
        chain: asset.chain,
        address: allocated.address,
        addressIndex: allocated.index,
        amountRequested: isInvoice ? (amount ?? null) : null,
        amountPaid: Amount.ZERO,
        expiresAt: isInvoice ? new Date(now.getTime() + ttlMinutes * 60_000) : null,
        paidAt: null,
        cancelledAt: null,
        webhookUrl: input.webhook_url ?? null,
        redirectUrl: input.redirect_url ?? null,
        idempotencyKey: idempotencyKey ?? null,
        idempotencyFingerprint: fingerprint,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      return { paymentRequest: request, replayed: false };
    });
    // After commit: the invoice's expiry workflow (never throws; see invoice-workflow/invoice-scheduler.ts). A replay
    // started nothing new; its workflow was started by the first attempt (REJECT_DUPLICATE would ignore it anyway).
    if (!outcome.replayed) await this.scheduler.invoiceCreated(outcome.paymentRequest);
    return outcome;
  }

  /** The caller's requests, newest first; per_page 1..100 (default 25), page from 1 (default 1); bad values 422. */
  async list(principal: CryptoPrincipal, query: unknown): Promise<PaymentRequestPage> {
    const input = parseInput(listPaymentRequestsQuery, isRecord(query) ? query : {});
    return new PaymentRequestRepository(this.em).listForAccount(principal.accountId, input.page, input.per_page, { status: input.status, reference: input.reference }, this.now());
  }

  /** The caller's request by internal id; another account's or unknown: NotFoundError (404). */
  async get(principal: CryptoPrincipal, id: string | number): Promise<PaymentRequest> {
    const internalId = parseInternalId(id);
    const request = internalId === null ? null : await new PaymentRequestRepository(this.em).findOwned(principal.accountId, internalId);
    if (!request) throw new NotFoundError(`payment request ${String(id)}`);
    return request;
  }

  /** Entity resolution: the caller's own request, else null. */
  async findVisible(principal: CryptoPrincipal, id: string): Promise<PaymentRequest | null> {
    const internalId = parseInternalId(id);
    return internalId === null ? null : new PaymentRequestRepository(this.em).findOwned(principal.accountId, internalId);
  }

  /**
   * Cancels an unsettled request (pending, partial or expired) under a row lock. Settled (paid, overpaid):
   * BusinessRuleError 422 "A settled request cannot be cancelled."; already cancelled: returned unchanged.
   */
  async cancel(principal: CryptoPrincipal, id: string | number): Promise<PaymentRequest> {
    const internalId = parseInternalId(id);
    if (internalId === null) throw new NotFoundError(`payment request ${String(id)}`);
    let cancelledNow = false;
    const cancelled = await this.em.transactional(async (tx) => {
      const request = await new PaymentRequestRepository(tx).findOwned(principal.accountId, internalId, true);
      if (!request) throw new NotFoundError(`payment request ${internalId}`);
      if (request.status === 'cancelled') return request;
      const outcome = applyCancel(request.toState());
      if (!outcome.ok) throw new BusinessRuleError(SETTLED_CANCEL_MESSAGE);
      request.applyState(outcome.state);
      request.cancelledAt = this.now();
      await tx.flush();
      cancelledNow = true;
      return request;
    });
    // After commit: end the invoice's expiry workflow early (never throws).
    if (cancelledNow && cancelled.type === 'invoice') await this.scheduler.invoiceCancelled(cancelled.slug);
    return cancelled;
  }

  /** The public payer view by slug: unknown or cancelled -> NotFoundError (404). */
  async findPublic(slug: string): Promise<PaymentRequest> {
    const request = SLUG_PATTERN.test(slug) ? await new PaymentRequestRepository(this.em).findBySlug(slug) : null;
    if (!request || request.status === 'cancelled') throw new NotFoundError(`payment request slug ${slug.slice(0, 40)}`);
    return request;
  }

  /**
   * Hook for the invoice-expiry workflow: stores `expired` for a pending/partial invoice whose deadline has passed
   * (under a row lock) and returns the payment.expired event it caused — none when it is not due, already
   * expired, settled or cancelled, so running it twice is harmless.
   */
  async expireIfDue(paymentRequestId: number): Promise<PaymentRequestChange> {
    let afterCommit: AfterCommit | void = undefined;
    const change = await this.em.transactional(async (tx): Promise<PaymentRequestChange> => {
      const request = await new PaymentRequestRepository(tx).lockById(paymentRequestId);
      if (!request) throw new NotFoundError(`payment request ${paymentRequestId}`);
      const now = this.now();
      const transition = applyExpiry(request.toState(), now);
      if (transition.events.length === 0) return { paymentRequest: request, events: [] };
      request.applyState(transition.state);
      await tx.flush();
      const events = domainEvents(request, transition.events, now);
      afterCommit = await this.events.emit(tx, request, events);
      return { paymentRequest: request, events };
    });
    await runAfterCommit(afterCommit);
    return change;
  }
}
