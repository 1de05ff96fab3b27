import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, parseInput, randomChars } from '@tributary/kit';
import { z } from 'zod';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from '../merchants/index.js';
import { MerchantPlan, financeableAmountProblem } from '../plans/index.js';
import { PaymentLink } from './payment-link.entity.js';
import { createPaymentLinkInput, specFieldsOf, updatePaymentLinkInput, type PaymentLinkDraft } from './payment-link.validation.js';

/** Length of the public slug: 16 characters of [A-Za-z0-9] (≈ 95 bits from a CSPRNG), so links cannot be enumerated. */
export const PAYMENT_LINK_SLUG_LENGTH = 16;
export const PAYMENT_LINK_SLUG_PATTERN = /^[A-Za-z0-9]{16}$/;

/** The payment link domain: one path for REST and GraphQL; a merchant only ever sees its own links. */
export class PaymentLinkService {
  /** `publicBaseUrl`: origin of the links' public pages (public-url.ts). */
  constructor(
    private readonly em: EntityManager,
    readonly publicBaseUrl: string,
  ) {}

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

  /** The link behind a public page: unknown, malformed or deleted → NotFoundError. */
  async findPublic(slug: string): Promise<PaymentLink> {
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
