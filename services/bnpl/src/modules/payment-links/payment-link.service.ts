import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, RateLimitedError, ValidationError, parseInput, randomChars } from '@tributary/kit';
import { z } from 'zod';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from '../merchants/index.js';
import { MerchantPlan, financeableAmountProblem } from '../plans/index.js';
import { checkoutUrl, type WidgetSessionService } from '../widget-sessions/index.js';
import { paymentLinkDonePath, paymentLinkPagePath, type PaymentLinkPageModel } from './payment-link-page.view.js';
import { PaymentLink } from './payment-link.entity.js';
import { createPaymentLinkInput, specFieldsOf, updatePaymentLinkInput, type PaymentLinkDraft } from './payment-link.validation.js';

/** Length of the public slug: 16 characters of [A-Za-z0-9] (≈ 95 bits from a CSPRNG), so links cannot be enumerated. */
export const PAYMENT_LINK_SLUG_LENGTH = 16;
export const PAYMENT_LINK_SLUG_PATTERN = /^[A-Za-z0-9]{16}$/;

/** The payment link domain: one path for REST and GraphQL; a merchant only ever sees its own links. */
export interface PaymentLinkServiceOptions {
  /** Origin of the links' public pages and of the checkout they start (public-url.ts). */
  publicBaseUrl: string;
  /** Starts the widget sessions a link's page hands to checkout. */
  sessions: WidgetSessionService;
  /** Open sessions a link may have at once; a start beyond it is refused (429) until some end. */
  maxOpenSessions?: number;
}

/** The decided cap of a link's open sessions (each holds a checkout and a 30-minute expiry workflow). */
export const PAYMENT_LINK_MAX_OPEN_SESSIONS = 200;
/** When a shopper refused by the cap may try again: sessions end by checkout, cancel or their 30-minute deadline. */
export const PAYMENT_LINK_BUSY_RETRY_SECONDS = 60;

/** What a shopper's "Pay in installments" on a link's page led to: a checkout to go to, or nothing left to sell. */
export type PaymentLinkCheckoutStart = { kind: 'checkout'; checkoutUrl: string } | { kind: 'sold_out'; page: PaymentLinkPageModel };

export class PaymentLinkService {
  readonly publicBaseUrl: string;
  private readonly sessions: WidgetSessionService;
  private readonly maxOpenSessions: number;

  constructor(
    private readonly em: EntityManager,
    options: PaymentLinkServiceOptions,
  ) {
    this.publicBaseUrl = options.publicBaseUrl;
    this.sessions = options.sessions;
    this.maxOpenSessions = options.maxOpenSessions ?? PAYMENT_LINK_MAX_OPEN_SESSIONS;
  }

  list(principal: BnplPrincipal): Promise<PaymentLink[]> {
    return this.em.getRepository(PaymentLink).listFor(merchantOf(principal));
  }

  async get(principal: BnplPrincipal, id: string): Promise<PaymentLink> {
    const link = isUuid(id) ? await this.em.getRepository(PaymentLink).findOwned(merchantOf(principal), id) : null;
    if (!link) throw new NotFoundError(`payment link ${id.slice(0, 64)}`);
    return link;
  }

  /** Creates a link whose price checkout can sell (within the merchant's enabled plans); all problems in one 422. */
  async create(principal: BnplPrincipal, draft: PaymentLinkDraft): Promise<PaymentLink> {
    const input = parseInput(createPaymentLinkInput, specFieldsOf(draft));
    await this.assertSellable(merchantOf(principal), input.amount_cents);
    const link = this.em.create(PaymentLink, {
      merchant: this.em.getReference(Merchant, merchantOf(principal)),
      slug: randomChars(PAYMENT_LINK_SLUG_LENGTH),
      title: input.title,
      amountCents: input.amount_cents,
      currency: input.currency,
      maxUses: input.max_uses ?? null,
      usesCount: 0,
      environment: input.environment ?? 'live',
      deletedAt: null,
    });
    await this.em.flush();
    return link;
  }

  /**
   * Changes the given fields under a row lock (a concurrent checkout counting a use waits). max_uses cannot go below the
   * uses already counted. Sessions already started keep the price they started with.
   */
  async update(principal: BnplPrincipal, id: string, draft: PaymentLinkDraft): Promise<PaymentLink> {
    const input = parseInput(updatePaymentLinkInput, specFieldsOf(draft));
    return this.em.transactional(async (tx) => {
      const link = isUuid(id) ? await tx.getRepository(PaymentLink).findOwned(merchantOf(principal), id, true) : null;
      if (!link) throw new NotFoundError(`payment link ${id.slice(0, 64)}`);
      if (input.max_uses != null && input.max_uses < link.usesCount) {
        throw new ValidationError({ max_uses: [`Must be at least the number of uses already counted (${link.usesCount}).`] });
      }
      if (input.amount_cents !== undefined) await this.assertSellable(merchantOf(principal), input.amount_cents, tx);
      if (input.title !== undefined) link.title = input.title;
      if (input.amount_cents !== undefined) link.amountCents = input.amount_cents;
      if (input.currency !== undefined) link.currency = input.currency;
      if (input.max_uses !== undefined) link.maxUses = input.max_uses;
      if (input.environment !== undefined) link.environment = input.environment;
      await tx.flush();
      return link;
    });
  }

  /** Deletes the link: gone from the API and its public page (404); sold loans keep their record. */
  async delete(principal: BnplPrincipal, id: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      const link = isUuid(id) ? await tx.getRepository(PaymentLink).findOwned(merchantOf(principal), id, true) : null;
      if (!link) throw new NotFoundError(`payment link ${id.slice(0, 64)}`);
      link.deletedAt = new Date();
      await tx.flush();
    });
  }

  /** The public page of a link: unknown, malformed or deleted → NotFoundError. */
  async page(slug: string): Promise<PaymentLinkPageModel> {
    return pageModel(await this.findPublic(slug));
  }

  /**
   * A shopper starts buying through the link: a widget session at the link's price now, in the link's mode, whose
   * success and cancel URLs are the link's own pages. A link with no use left is sold out (its page says so). The use
   * itself is counted when checkout books the loan (countUse), so abandoned checkouts cost nothing.
   */
  async startCheckout(slug: string): Promise<PaymentLinkCheckoutStart> {
    const link = await this.findPublic(slug);
    if (!link.isRedeemable()) return { kind: 'sold_out', page: pageModel(link) };
    if ((await this.sessions.openSessionsOfPaymentLink(link.id)) >= this.maxOpenSessions) throw new RateLimitedError(PAYMENT_LINK_BUSY_RETRY_SECONDS);
    const session = await this.sessions.createForPaymentLink({
      paymentLinkId: link.id,
      merchantId: link.merchant.id,
      livemode: link.environment === 'live',
      amountCents: link.amountCents,
      currency: link.currency,
      title: link.title,
      orderReference: `payment-link:${link.slug}`,
      successUrl: `${this.publicBaseUrl}${paymentLinkDonePath(link.slug)}`,
      cancelUrl: `${this.publicBaseUrl}${paymentLinkPagePath(link.slug)}`,
    });
    return { kind: 'checkout', checkoutUrl: checkoutUrl(this.publicBaseUrl, session.token) };
  }

  /**
   * PaymentLinkUseCounter (checkout): inside the booking transaction, under the link's row lock, takes one use, or
   * answers `sold_out` when none is left (or the link was deleted meanwhile), so two shoppers racing for the last use
   * never both get a loan.
   */
  async countUse(tx: EntityManager, paymentLinkId: string): Promise<'counted' | 'sold_out'> {
    const link = await tx.getRepository(PaymentLink).lockById(paymentLinkId);
    if (!link || !link.isRedeemable()) return 'sold_out';
    link.usesCount += 1;
    await tx.flush();
    return 'counted';
  }

  private async findPublic(slug: string): Promise<PaymentLink> {
    const link = PAYMENT_LINK_SLUG_PATTERN.test(slug) ? await this.em.getRepository(PaymentLink).findBySlug(slug) : null;
    if (!link) throw new NotFoundError(`payment link slug ${slug.slice(0, 40)}`);
    return link;
  }

  /** A price no enabled plan covers could never be sold: refuse it on amount_cents. */
  private async assertSellable(merchantId: string, amountCents: number, em: EntityManager = this.em): Promise<void> {
    const problem = financeableAmountProblem(await em.getRepository(MerchantPlan).enabledFor(merchantId), amountCents);
    if (problem) throw new ValidationError({ amount_cents: [problem] });
  }
}

function isUuid(id: string): boolean {
  return z.uuid().safeParse(id).success;
}

function merchantOf(principal: BnplPrincipal): string {
  return dashboardMerchantId(principal, 'Payment links');
}

function pageModel(link: PaymentLink): PaymentLinkPageModel {
  return {
    slug: link.slug,
    title: link.title,
    merchantName: link.merchant.name,
    amountCents: link.amountCents,
    currency: link.currency,
    livemode: link.environment === 'live',
    isRedeemable: link.isRedeemable(),
  };
}
