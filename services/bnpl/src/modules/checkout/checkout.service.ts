// The shopper's hosted checkout: opening checkout_url decides eligibility, confirming books the loan. The one domain
// path of the page (routes only render what it returns). Every state change happens under the session's row lock, so
// a double submit, a second tab or two racing confirms book one loan: the later ones find the session authorized and
// show the same success.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  NotFoundError,
  afterCommitAll,
  enqueueWorkflowSignal,
  transactionWithAfterCommit,
  type AfterCommit,
  type Committed,
  type WorkflowOutbox,
} from '@tributary/kit';
import { WIDGET_SESSION_SIGNALS } from '@tributary/workflows';
import { bookLoan, enqueueLoanLifecycle, findLoanOfSession, noLoanEvents, testClockOffsetMs, type Loan, type LoanEventSink } from '../loans/index.js';
import { MerchantPlan } from '../plans/index.js';
import {
  SESSION_TOKEN_PATTERN,
  WidgetSession,
  applyAuthorization,
  applyEligibility,
  effectiveStatus,
  widgetSessionExpirySignal,
  type SessionStatus,
  type SessionTransition,
} from '../widget-sessions/index.js';
import { checkoutSummary, planOffers, prefilledValues, type CheckoutPage, type CheckoutSummary, type ClosedPage, type ClosedStatus, type CompletedPage, type FormPage } from './checkout.pages.js';
import { SHOPPER_FIELDS, SHOPPER_MESSAGES, checkShopperForm, type ShopperDetails, type ShopperFormValues } from './checkout.validation.js';
import { decideEligibility, type EligibilityDecision } from './eligibility.js';

/**
 * Counts a payment link's use when a loan it started is booked (the payment-links module implements it): inside the
 * booking transaction, under the link's row lock, so two shoppers racing for the last use never both get a loan.
 */
export interface PaymentLinkUseCounter {
  countUse(tx: EntityManager, paymentLinkId: string): Promise<'counted' | 'sold_out'>;
}

export interface CheckoutServiceOptions {
  /** Where loan.authorized goes (the webhooks module's sink); none by default. */
  events?: LoanEventSink;
  /** Counts payment link uses (sessions started from a link's page); without one such a session cannot be booked. */
  paymentLinks?: PaymentLinkUseCounter;
  /** Dispatches the expiry workflow's `authorized` signal right after the commit; without one the worker's sweeper does. */
  outbox?: WorkflowOutbox;
  /** The clock (tests). */
  now?: () => Date;
}

/**
 * What a confirm did: `booked` (now, or earlier: `replayed`), `invalid` (the form again with messages; nothing
 * stored), `declined` (the eligibility re-check refused the shopper: the session is now ineligible) or `refused`
 * (the session was already ineligible, expired or cancelled; nothing stored).
 */
export type ConfirmOutcome =
  | { kind: 'booked'; page: CompletedPage; replayed: boolean }
  | { kind: 'invalid'; page: FormPage }
  | { kind: 'declined'; page: ClosedPage }
  | { kind: 'refused'; page: ClosedPage };

const isClosed = (status: SessionStatus): status is Extract<ClosedStatus, SessionStatus> => status === 'ineligible' || status === 'expired' || status === 'cancelled';

export class CheckoutService {
  private readonly events: LoanEventSink;
  private readonly paymentLinks: PaymentLinkUseCounter | undefined;
  private readonly outbox: WorkflowOutbox | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: CheckoutServiceOptions = {},
  ) {
    this.events = options.events ?? noLoanEvents;
    this.paymentLinks = options.paymentLinks;
    this.outbox = options.outbox;
    this.now = options.now ?? (() => new Date());
  }

  clock(): Date {
    return this.now();
  }

  /**
   * The page for checkout_url. An initialized (or eligible) session gets its eligibility decided with the prefilled
   * e-mail and the merchant's enabled plans now, stored under the row lock when it changes. Unknown token: NotFoundError.
   */
  async open(token: string): Promise<CheckoutPage> {
    const session = await this.findSession(token);
    const summary = checkoutSummary(session);
    const status = effectiveStatus(session.toState(), this.now());
    if (status === 'authorized') return this.completedPage(this.em, session, summary);
    if (isClosed(status)) return { kind: 'closed', summary, status };
    const decision = await this.decide(this.em, session, session.customerEmail ?? null);
    const stored = decision.decision === status ? session : await this.recordEligibility(token, decision);
    return this.openedPage(stored, summary, decision);
  }

  /**
   * Confirm (the form post): checks the form, then in one transaction with the session locked re-checks eligibility
   * with the entered e-mail, books the loan with its installments, authorizes the session, hands loan.authorized to
   * the event sink, queues the expiry workflow's `authorized` signal and the loan's lifecycle workflow start; all are
   * dispatched after the commit.
   */
  async confirm(token: string, body: unknown): Promise<ConfirmOutcome> {
    const session = await this.findSession(token);
    const summary = checkoutSummary(session);
    const settled = await this.settledOutcome(this.em, session, summary);
    if (settled) return settled;
    const form = checkShopperForm(body);
    if (!form.ok) return { kind: 'invalid', page: await this.formPage(session, summary, form.values, form.errors) };
    return transactionWithAfterCommit(this.em, (tx) => this.book(tx, summary, form.details, form.values));
  }

  /** The locked part of confirm: the steps in order, each refusing before anything is written. */
  private async book(tx: EntityManager, summary: CheckoutSummary, details: ShopperDetails, values: ShopperFormValues): Promise<Committed<ConfirmOutcome>> {
    const session = await this.lockSession(tx, summary.token);
    const settled = await this.settledOutcome(tx, session, summary);
    if (settled) return { result: settled };
    const now = this.now();
    // A test-mode loan is booked on its merchant's test clock (its schedule counts from the clock's today).
    const clockOffsetMs = await this.clockOffsetMs(tx, session);
    const bookedAt = new Date(now.getTime() + clockOffsetMs);
    const decision = await this.decide(tx, session, details.email);
    if (decision.decision === 'ineligible') {
      transition(session, applyEligibility(session.toState(), 'ineligible', now));
      await tx.flush();
      return { result: { kind: 'declined', page: { kind: 'closed', summary, status: 'ineligible' } } };
    }
    const plan = decision.plans.find((offered) => offered.id === details.planId);
    if (!plan) {
      const page: FormPage = { kind: 'form', summary, offers: planOffers(decision.plans, session, bookedAt), values, errors: { [SHOPPER_FIELDS.plan]: [SHOPPER_MESSAGES.planNotOffered] } };
      return { result: { kind: 'invalid', page } };
    }
    if ((await this.countPaymentLinkUse(tx, session)) === 'sold_out') return { result: { kind: 'refused', page: { kind: 'closed', summary, status: 'sold_out' } } };
    transition(session, applyEligibility(session.toState(), 'eligible', now));
    transition(session, applyAuthorization(session.toState(), now));
    session.authorizedAt = now;
    const loan = await bookLoan(tx, { session, plan, customer: { email: details.email, phone: details.phone }, bookedAt });
    const afterCommit = await this.announceAuthorization(tx, session, loan, clockOffsetMs);
    return { result: { kind: 'booked', replayed: false, page: { kind: 'completed', summary, loan } }, afterCommit };
  }

  /** A session started from a payment link takes one of its uses (refused when none is left); any other: nothing to count. */
  private async countPaymentLinkUse(tx: EntityManager, session: WidgetSession): Promise<'counted' | 'sold_out' | 'none'> {
    if (!session.paymentLinkId) return 'none';
    if (!this.paymentLinks) throw new Error('checkout: a payment link session needs the payment link use counter');
    return this.paymentLinks.countUse(tx, session.paymentLinkId);
  }

  /** loan.authorized to the event sink, the expiry workflow told to stop, the loan's lifecycle workflow started: all committed with the loan. */
  private async announceAuthorization(tx: EntityManager, session: WidgetSession, loan: Loan, clockOffsetMs: number): Promise<AfterCommit | undefined> {
    const event = await this.events.emit(tx, loan, 'loan.authorized');
    const signal = await enqueueWorkflowSignal(tx, widgetSessionExpirySignal(session.id, WIDGET_SESSION_SIGNALS.authorized));
    const lifecycle = await enqueueLoanLifecycle(tx, loan, clockOffsetMs);
    return afterCommitAll(event, this.outbox?.dispatchAfterCommit([signal, lifecycle]));
  }

  /** A confirm's answer when the session can no longer be confirmed: its success (authorized) or a refusal. */
  private async settledOutcome(em: EntityManager, session: WidgetSession, summary: CheckoutSummary): Promise<ConfirmOutcome | null> {
    const status = effectiveStatus(session.toState(), this.now());
    if (status === 'authorized') return { kind: 'booked', replayed: true, page: await this.completedPage(em, session, summary) };
    if (isClosed(status)) return { kind: 'refused', page: { kind: 'closed', summary, status } };
    return null;
  }

  /** Stores an eligibility decision under the row lock; returns the session as stored (another request may have moved it). */
  private async recordEligibility(token: string, decision: EligibilityDecision): Promise<WidgetSession> {
    return this.em.transactional(async (tx) => {
      const session = await this.lockSession(tx, token);
      const change = applyEligibility(session.toState(), decision.decision, this.now());
      if (change.ok) session.applyState(change.state);
      await tx.flush();
      return session;
    });
  }

  /** The page of a session as stored after its eligibility decision: the prefilled form when eligible. */
  private async openedPage(session: WidgetSession, summary: CheckoutSummary, decision: EligibilityDecision): Promise<CheckoutPage> {
    const status = effectiveStatus(session.toState(), this.now());
    if (status === 'authorized') return this.completedPage(this.em, session, summary);
    if (isClosed(status) || decision.decision === 'ineligible') return { kind: 'closed', summary, status: isClosed(status) ? status : 'ineligible' };
    const offers = planOffers(decision.plans, session, await this.scheduleDate(session));
    return { kind: 'form', summary, offers, values: prefilledValues(session, offers), errors: {} };
  }

  /** The form again with the shopper's values and messages (the plans as offered now). */
  private async formPage(session: WidgetSession, summary: CheckoutSummary, values: ShopperFormValues, errors: FormPage['errors']): Promise<FormPage> {
    const decision = await this.decide(this.em, session, null);
    return { kind: 'form', summary, offers: planOffers(decision.plans, session, await this.scheduleDate(session)), values, errors };
  }

  /** 0, or for a test-mode session how far its merchant's test clock is ahead (README "Test clocks"). */
  private clockOffsetMs(em: EntityManager, session: WidgetSession): Promise<number> {
    return session.livemode ? Promise.resolve(0) : testClockOffsetMs(em, session.merchant.id);
  }

  /** The day the shown schedule counts from: today on the session's clock. */
  private async scheduleDate(session: WidgetSession): Promise<Date> {
    return new Date(this.now().getTime() + (await this.clockOffsetMs(this.em, session)));
  }

  private async completedPage(em: EntityManager, session: WidgetSession, summary: CheckoutSummary): Promise<CompletedPage> {
    const loan = await findLoanOfSession(em, session.id);
    if (!loan) throw new Error(`session ${session.id} is authorized without a loan`);
    return { kind: 'completed', summary, loan };
  }

  private async decide(em: EntityManager, session: WidgetSession, customerEmail: string | null): Promise<EligibilityDecision> {
    const enabledPlans = await em.getRepository(MerchantPlan).enabledFor(session.merchant.id);
    return decideEligibility({ amountCents: session.amountCents, livemode: session.livemode, enabledPlans, customerEmail });
  }

  /** The session of a checkout_url token, its merchant loaded; a malformed or unknown token is not found. */
  private async findSession(token: string): Promise<WidgetSession> {
    const session = SESSION_TOKEN_PATTERN.test(token) ? await this.em.findOne(WidgetSession, { token }, { populate: ['merchant'] }) : null;
    if (!session) throw new NotFoundError(`widget session ${token.slice(0, 40)}`);
    return session;
  }

  private async lockSession(tx: EntityManager, token: string): Promise<WidgetSession> {
    const session = await tx.findOne(WidgetSession, { token }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!session) throw new NotFoundError(`widget session ${token.slice(0, 40)}`);
    return session;
  }
}

/** Applies a transition the caller has already checked is allowed (a refusal here is a bug, not a shopper's mistake). */
function transition(session: WidgetSession, change: SessionTransition): void {
  if (!change.ok) throw new Error(`checkout: session transition refused (${change.status}, ${change.reason})`);
  session.applyState(change.state);
}
