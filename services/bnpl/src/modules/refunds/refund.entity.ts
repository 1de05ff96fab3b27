import { defineEntity, p } from '@mikro-orm/core';
import { Loan } from '../loans/index.js';
import { Merchant } from '../merchants/index.js';
import { REFUND_STATUSES } from './refund-status-engine.js';
import { RefundRepository } from './refund.repository.js';

/**
 * A refund of part or all of a loan's principal (spec "Refund"). Requested by the merchant, then processed by its
 * workflow (`refund-<id>`): processed reduces what the shopper owes (returned_to_shopper_cents is what went back to the
 * shopper's payment method because they had already paid it), failed keeps a failure_reason and no longer counts
 * against the principal.
 */
export const RefundSchema = defineEntity({
  name: 'Refund',
  tableName: 'refunds',
  repository: () => RefundRepository,
  indexes: [{ properties: ['merchant', 'createdAt'] }, { properties: ['loan'] }],
  uniques: [{ properties: ['merchant', 'idempotencyKey'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    loan: () => p.manyToOne(Loan).deleteRule('cascade'),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    livemode: p.boolean(),
    amountCents: p.integer(),
    currency: p.string().length(3),
    reason: p.string().length(500),
    status: p.enum(REFUND_STATUSES),
    failureReason: p.string().length(255).nullable(),
    returnedToShopperCents: p.integer().default(0),
    idempotencyKey: p.string().length(255).nullable(),
    idempotencyFingerprint: p.string().length(64).nullable(),
    processedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Refund extends RefundSchema.class {}
RefundSchema.setClass(Refund);
