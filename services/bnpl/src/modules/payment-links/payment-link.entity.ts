import { defineEntity, p } from '@mikro-orm/core';
import { API_KEY_ENVIRONMENTS } from '../api-keys/index.js';
import { Merchant } from '../merchants/index.js';
import { PaymentLinkRepository } from './payment-link.repository.js';

/**
 * A permanent shareable URL bound to a fixed price (spec "Payment link"). Each loan booked through it counts one use;
 * at max_uses it stops being redeemable. Deleting keeps the row (deletedAt) so the loans it sold keep their origin;
 * a deleted link is gone from the API and its public page answers 404.
 */
export const PaymentLinkSchema = defineEntity({
  name: 'PaymentLink',
  tableName: 'payment_links',
  repository: () => PaymentLinkRepository,
  indexes: [{ properties: ['merchant', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    slug: p.string().length(32).unique(),
    title: p.string().length(191),
    amountCents: p.integer(),
    currency: p.string().length(3),
    maxUses: p.integer().nullable(),
    usesCount: p.integer().default(0),
    environment: p.enum(API_KEY_ENVIRONMENTS),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    deletedAt: p.datetime().nullable(),
  },
});

export class PaymentLink extends PaymentLinkSchema.class {
  /** Whether a shopper can still buy through it: not deleted and, with a max_uses, uses left. */
  isRedeemable(): boolean {
    return this.deletedAt == null && (this.maxUses == null || this.usesCount < this.maxUses);
  }
}
PaymentLinkSchema.setClass(PaymentLink);
