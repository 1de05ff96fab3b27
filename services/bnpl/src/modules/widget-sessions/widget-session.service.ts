import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  compileEntityInsert,
  enqueueWorkflowSignal,
  insertWithWorkflowStart,
  idempotencyFingerprint,
  idempotencyKeyReused,
  integerRangeMessage,
  lockIdempotencyKey,
  parseIdempotencyKey,
  transactionWithAfterCommit,
  type AfterCommit,
  type EntityInsertRow,
  type OutboxEntryRef,
  type RowInsert,
  type WorkflowOutbox,
  isUuid,
} from '@tributary/kit';
import { WIDGET_SESSION_SIGNALS } from '@tributary/workflows';
import { readableLivemode, type BnplPrincipal } from '../merchant-auth/index.js';
import { EnabledPlansCache } from '../plans/index.js';
import { applyCancel, applyExpiry, isOpen } from './session-status-engine.js';
import { SESSION_TOKEN_PATTERN, generateSessionToken } from './session-token.js';
import { widgetSessionExpirySignal, widgetSessionExpiryStart } from './widget-session-expiry.commands.js';
import { WidgetSession } from './widget-session.entity.js';
import { WIDGET_SESSION_LIFETIME_MINUTES } from './widget-session.limits.js';
import type { SessionViewer } from './widget-session.repository.js';
import { validateNewWidgetSession, type NewWidgetSession } from './widget-session.validation.js';

/** Bounds of a list of recent sessions (GraphQL `sessions(first:)`). */
export const RECENT_SESSIONS_DEFAULT = 25;
export const RECENT_SESSIONS_MAX = 100;

/** Who creates a session: the merchant and the mode of its API key (a test key makes test sessions). */
export interface SessionCreator {
  merchantId: string;
  livemode: boolean;
}

export interface WidgetSessionServiceOptions {
  /**
   * Dispatches a cancel's `cancelled` signal (with the expiry workflow's start, if that is still queued) right after
   * its commit. The start itself is always left to the worker's sweeper (see create). Without one everything stays
   * queued in the outbox until the sweeper dispatches it.
   */
  outbox?: WorkflowOutbox;
  /** The clock (tests). */
  now?: () => Date;
  /** Session lifetime; WIDGET_SESSION_LIFETIME_MINUTES unless a test needs a session that expires in seconds. */
  lifetimeMs?: number;
  /** The merchants' enabled plans for the create's amount check; share it with PlanService, which clears it on a switch. */
  enabledPlans?: EnabledPlansCache;
}

/** What a payment link's page hands over to start a session (the payment-links module owns the link itself). */
export interface PaymentLinkSessionSource {
  paymentLinkId: string;
  merchantId: string;
  livemode: boolean;
  amountCents: number;
  currency: string;
  title: string;
  /** The loan's purchase_reference: names the link, so a merchant's sales show what sold through it. */
  orderReference: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * What a create answers with (the 201's body, its Location, the expiry workflow's start): the new session's row as
 * written, without building a managed entity the request would only read three fields of; the earlier entity when a
 * create is replayed.
 */
export type CreatedWidgetSession = Pick<WidgetSession, 'id' | 'token' | 'expiresAt' | 'amountCents' | 'currency'>;

/** What a create produced: the session, and whether it already existed under the same Idempotency-Key. */
export interface WidgetSessionCreation {
  session: CreatedWidgetSession;
  /** True when an earlier create with the same key and body made it; nothing new was created. */
  replayed: boolean;
}

/** What the expiry workflow's activity did: stored `expired`, found the session open but not yet due, or final. */
export interface SessionExpiry {
  outcome: 'expired' | 'not_due' | 'final';
  session: WidgetSession;
}

/** An idempotent create's key and the fingerprint of its body; both null for a create without a key. */
interface Idempotency {
  key: string | null;
  fingerprint: string | null;
}

const NO_IDEMPOTENCY: Idempotency = { key: null, fingerprint: null };

/**
 * The widget session domain: one path for REST and GraphQL (and the expiry workflow's activity). Merchant operations
 * see only the caller's own sessions in the caller's mode; anything else is the same NotFoundError.
 */
export class WidgetSessionService {
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly now: () => Date;
  private readonly lifetimeMs: number;
  private readonly enabledPlans: EnabledPlansCache;
  /** The session's INSERT, compiled from the entity's metadata on first use (kit compileEntityInsert). */
  private sessionInsert: ((row: EntityInsertRow<WidgetSession>) => RowInsert) | undefined;

  constructor(
    private readonly em: EntityManager,
    options: WidgetSessionServiceOptions = {},
  ) {
    this.outbox = options.outbox;
    this.now = options.now ?? (() => new Date());
    this.lifetimeMs = options.lifetimeMs ?? WIDGET_SESSION_LIFETIME_MINUTES * 60_000;
    this.enabledPlans = options.enabledPlans ?? new EnabledPlansCache(em);
  }

  clock(): Date {
    return this.now();
  }

  /**
   * Creates an `initialized` session after checking every field (all problems in one 422, nothing stored). With an
   * Idempotency-Key already used by this merchant: the same (normalised) body returns the earlier session
   * (`replayed`), another body is a 422 on the key. The expiry workflow's start is committed with the session and
   * left to the worker's outbox sweeper (within about 15 s): its only step is a timer half an hour away, so the create
   * makes no Temporal call at all. A cancel or an authorization before then sends the start ahead of its signal.
   */
  async create(creator: SessionCreator, body: unknown, options: { idempotencyKey?: unknown } = {}): Promise<WidgetSessionCreation> {
    const { key, fields } = parseIdempotencyKey(options.idempotencyKey);
    const enabledPlans = await this.enabledPlans.enabledFor(creator.merchantId);
    const input = validateNewWidgetSession(body, { livemode: creator.livemode, enabledPlans, fields });
    if (key === undefined) return { session: await this.insert(this.em, creator, input, NO_IDEMPOTENCY), replayed: false };
    const idempotency: Idempotency = { key, fingerprint: sessionFingerprint(input, creator.livemode) };
    return this.em.transactional(async (tx) => {
      const earlier = await this.earlierCreate(tx, creator, idempotency);
      if (earlier) return { session: earlier, replayed: true };
      return { session: await this.insert(tx, creator, input, idempotency), replayed: false };
    });
  }

  /**
   * A session a payment link's public page starts for a shopper: the link's fixed price as it is now (a later price
   * change never touches it), its mode, no shopper details, and the link's own pages as success and cancel URLs. The
   * link is recorded on the session; its use is counted when checkout books the loan. Same expiry workflow as any
   * session.
   */
  createForPaymentLink(link: PaymentLinkSessionSource): Promise<CreatedWidgetSession> {
    const input: NewWidgetSession = {
      amountCents: link.amountCents,
      currency: link.currency,
      orderReference: link.orderReference,
      customerEmail: null,
      customerPhone: null,
      purchaseDescription: link.title,
      successUrl: link.successUrl,
      cancelUrl: link.cancelUrl,
    };
    return this.insert(this.em, { merchantId: link.merchantId, livemode: link.livemode }, input, NO_IDEMPOTENCY, link.paymentLinkId);
  }

  /** How many sessions the payment link started are still open (not booked, cancelled or past their deadline). */
  openSessionsOfPaymentLink(paymentLinkId: string): Promise<number> {
    return this.em.getRepository(WidgetSession).countOpenForPaymentLink(paymentLinkId, this.clock());
  }

  /** The viewer's session by token (merchant loaded); another merchant's, another mode's, unknown or malformed: 404. */
  async get(viewer: SessionViewer, token: string): Promise<WidgetSession> {
    const session = SESSION_TOKEN_PATTERN.test(token) ? await this.em.getRepository(WidgetSession).findVisible(token, viewer) : null;
    if (!session) throw new NotFoundError(`widget session ${token.slice(0, 40)}`);
    return session;
  }

  /**
   * Cancels an open session (initialized, eligible, ineligible) under a row lock and ends its expiry workflow (the
   * `cancelled` signal, through the outbox). Authorized, cancelled and expired (a deadline passed counts): 409, nothing
   * changed.
   */
  async cancel(viewer: SessionViewer, token: string): Promise<WidgetSession> {
    if (!SESSION_TOKEN_PATTERN.test(token)) throw new NotFoundError(`widget session ${token.slice(0, 40)}`);
    return transactionWithAfterCommit(this.em, async (tx) => {
      const session = await tx.getRepository(WidgetSession).lockVisible(token, viewer);
      if (!session) throw new NotFoundError(`widget session ${token}`);
      const now = this.now();
      const transition = applyCancel(session.toState(), now);
      if (!transition.ok) throw new ConflictError(`The session is ${transition.status} and cannot be cancelled.`);
      session.applyState(transition.state);
      session.cancelledAt = now;
      await tx.flush();
      const endExpiry = await enqueueWorkflowSignal(tx, widgetSessionExpirySignal(session.id, WIDGET_SESSION_SIGNALS.cancelled));
      return { result: session, afterCommit: this.dispatch([endExpiry]) };
    });
  }

  /** The id of the loan booked for the session (once authorized), else null. */
  loanIdOf(session: WidgetSession): Promise<string | null> {
    return this.em.getRepository(WidgetSession).loanIdOf(session.id);
  }

  /**
   * The caller's most recent sessions, newest first: every mode for the dashboard, an API key pair only its own
   * mode's. `first` 1..100 (default 25), anything else a 422 on `first`.
   */
  recent(principal: BnplPrincipal, first: number = RECENT_SESSIONS_DEFAULT): Promise<WidgetSession[]> {
    if (!Number.isInteger(first) || first < 1 || first > RECENT_SESSIONS_MAX) throw new ValidationError({ first: [integerRangeMessage(1, RECENT_SESSIONS_MAX)] });
    return this.em.getRepository(WidgetSession).recentFor(principal.merchantId, first, readableLivemode(principal));
  }

  /**
   * The expiry workflow's step: stores `expired` for an open session whose deadline has passed, under a row lock.
   * Not due yet (the worker's clock behind the server's): `not_due`; authorized, cancelled or already expired: `final`.
   * Idempotent. An unknown session is a NotFoundError.
   */
  async expireIfDue(sessionId: string): Promise<SessionExpiry> {
    if (!isUuid(sessionId)) throw new NotFoundError(`widget session ${sessionId.slice(0, 40)}`);
    return this.em.transactional(async (tx) => {
      const session = await tx.getRepository(WidgetSession).lockById(sessionId);
      if (!session) throw new NotFoundError(`widget session ${sessionId}`);
      const transition = applyExpiry(session.toState(), this.now());
      if (!transition.ok) return { outcome: isOpen(session.status) ? 'not_due' : 'final', session };
      session.applyState(transition.state);
      await tx.flush();
      return { outcome: 'expired', session };
    });
  }

  /**
   * The session an earlier create with this Idempotency-Key made, when the body is the same; another body is a 422.
   * Holds a transaction-scoped lock on (merchant, key), so a concurrent retry waits for the first attempt.
   */
  private async earlierCreate(tx: EntityManager, creator: SessionCreator, { key, fingerprint }: Idempotency): Promise<WidgetSession | null> {
    if (key === null) return null;
    await lockIdempotencyKey(tx, `bnpl:widget-session:${creator.merchantId}`, key);
    const earlier = await tx.getRepository(WidgetSession).findByIdempotencyKey(creator.merchantId, key);
    if (earlier && earlier.idempotencyFingerprint !== fingerprint) throw idempotencyKeyReused();
    return earlier;
  }

  /**
   * Writes a new `initialized` session and queues its expiry workflow's start in one statement (kit
   * insertWithWorkflowStart: one round trip, both or neither), in `em`'s transaction if it has one; without one the
   * statement is atomic by itself. The statement is compiled once from WidgetSession's metadata and filled in from the
   * row, which is also the answer.
   */
  private async insert(em: EntityManager, creator: SessionCreator, input: NewWidgetSession, idempotency: Idempotency, paymentLinkId: string | null = null): Promise<CreatedWidgetSession> {
    const now = this.now();
    const session = {
      id: randomUUID(),
      token: generateSessionToken(),
      merchant: creator.merchantId,
      livemode: creator.livemode,
      status: 'initialized' as const,
      ...input,
      expiresAt: new Date(now.getTime() + this.lifetimeMs),
      authorizedAt: null,
      cancelledAt: null,
      idempotencyKey: idempotency.key,
      idempotencyFingerprint: idempotency.fingerprint,
      paymentLinkId,
      createdAt: now,
      updatedAt: now,
    } satisfies EntityInsertRow<WidgetSession>;
    this.sessionInsert ??= compileEntityInsert(this.em, WidgetSession);
    await insertWithWorkflowStart(em, this.sessionInsert(session), widgetSessionExpiryStart(session));
    return session;
  }

  private dispatch(entries: ReadonlyArray<OutboxEntryRef | undefined>): AfterCommit | undefined {
    return this.outbox?.dispatchAfterCommit(entries);
  }
}

/**
 * The fingerprint of a create under an Idempotency-Key: the normalised fields under their wire names, and the mode, so
 * the same key sent with a test key and then a live key is a different request. Keep the names stable.
 */
function sessionFingerprint(input: NewWidgetSession, livemode: boolean): string {
  return idempotencyFingerprint({
    amount_cents: input.amountCents,
    cancel_url: input.cancelUrl,
    currency: input.currency,
    customer_email: input.customerEmail,
    customer_phone: input.customerPhone,
    livemode,
    order_reference: input.orderReference,
    purchase_description: input.purchaseDescription,
    success_url: input.successUrl,
  });
}
