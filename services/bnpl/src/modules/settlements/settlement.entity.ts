import { defineEntity, p } from '@mikro-orm/core';
import { Loan } from '../loans/index.js';
import { Merchant, SETTLEMENT_CADENCES } from '../merchants/index.js';
import { Refund } from '../refunds/index.js';
import { SETTLEMENT_STATUSES } from './settlement-period.js';
import { SettlementRepository } from './settlement.repository.js';

/**
 * A settlement batch (spec "Settlement (payout)"): what a merchant is paid for one closed period in one currency and
 * mode. Its lines are the sales, refunds and adjustments it covers, each counted in exactly one batch ever, so a
 * merchant can reconcile every cent. pending when cut, paid once the payout is made (settlement.processed fires then).
 */
export const SettlementSchema = defineEntity({
  name: 'Settlement',
  tableName: 'settlements',
  repository: () => SettlementRepository,
  indexes: [{ properties: ['merchant', 'createdAt'] }],
  uniques: [{ properties: ['merchant', 'batch'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    livemode: p.boolean(),
    batch: p.string().length(64),
    cadence: p.enum(SETTLEMENT_CADENCES),
    periodStart: p.string().columnType('date'),
    periodEnd: p.string().columnType('date'),
    currency: p.string().length(3),
    mdrBps: p.integer(),
    grossCents: p.bigint('number'),
    mdrCents: p.bigint('number'),
    refundsCents: p.bigint('number'),
    adjustmentsCents: p.bigint('number'),
    netCents: p.bigint('number'),
    status: p.enum(SETTLEMENT_STATUSES),
    paidAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Settlement extends SettlementSchema.class {}
SettlementSchema.setClass(Settlement);

/** An operator's correction to a merchant's next settlement (`admin bnpl adjust`): positive pays more, negative less. */
export const SettlementAdjustmentSchema = defineEntity({
  name: 'SettlementAdjustment',
  tableName: 'settlement_adjustments',
  indexes: [{ properties: ['merchant', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    livemode: p.boolean(),
    currency: p.string().length(3),
    amountCents: p.integer(),
    reason: p.string().length(500),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class SettlementAdjustment extends SettlementAdjustmentSchema.class {}
SettlementAdjustmentSchema.setClass(SettlementAdjustment);

export const SETTLEMENT_LINE_KINDS = ['sale', 'refund', 'adjustment'] as const;
export type SettlementLineKind = (typeof SETTLEMENT_LINE_KINDS)[number];

/**
 * One item a batch covers: a sale (+principal, with its MDR), a refund (−amount) or an adjustment (±amount). The
 * partial unique indexes make each sale, refund and adjustment land in one batch at most.
 */
export const SettlementLineSchema = defineEntity({
  name: 'SettlementLine',
  tableName: 'settlement_lines',
  indexes: [{ properties: ['settlement'] }],
  uniques: [
    { name: 'settlement_lines_loan_unique', expression: `create unique index "settlement_lines_loan_unique" on "settlement_lines" ("loan_id") where "kind" = 'sale'` },
    { name: 'settlement_lines_refund_unique', expression: `create unique index "settlement_lines_refund_unique" on "settlement_lines" ("refund_id") where "refund_id" is not null` },
    { name: 'settlement_lines_adjustment_unique', expression: `create unique index "settlement_lines_adjustment_unique" on "settlement_lines" ("adjustment_id") where "adjustment_id" is not null` },
  ],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    settlement: () => p.manyToOne(Settlement).deleteRule('cascade'),
    kind: p.enum(SETTLEMENT_LINE_KINDS),
    loan: () => p.manyToOne(Loan).nullable().deleteRule('cascade'),
    refund: () => p.manyToOne(Refund).nullable().deleteRule('cascade'),
    adjustment: () => p.manyToOne(SettlementAdjustment).nullable().deleteRule('cascade'),
    amountCents: p.integer(),
    mdrCents: p.integer().default(0),
  },
});
export class SettlementLine extends SettlementLineSchema.class {}
SettlementLineSchema.setClass(SettlementLine);
