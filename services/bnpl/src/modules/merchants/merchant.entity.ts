import { defineEntity, p } from '@mikro-orm/core';
import { MerchantRepository } from './merchant.repository.js';

export const SETTLEMENT_CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type SettlementCadence = (typeof SETTLEMENT_CADENCES)[number];

/** Merchant discount rate in basis points (1 bps = 0.01 %): the default for a new merchant and the allowed range. */
export const DEFAULT_MDR_BPS = 290;
export const MIN_MDR_BPS = 0;
export const MAX_MDR_BPS = 10_000;

/**
 * A merchant selling with BNPL. Settlement cadence and the merchant discount rate (MDR, spec "What the service does":
 * set at onboarding) are set by a platform administrator, outside the API.
 */
export const MerchantSchema = defineEntity({
  name: 'Merchant',
  tableName: 'merchants',
  repository: () => MerchantRepository,
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    name: p.string().length(191),
    settlementCadence: p.enum(SETTLEMENT_CADENCES).default('weekly'),
    mdrBps: p.integer().default(DEFAULT_MDR_BPS),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  checks: [{ name: 'merchants_mdr_bps_check', expression: `mdr_bps >= ${MIN_MDR_BPS} and mdr_bps <= ${MAX_MDR_BPS}` }],
});

export class Merchant extends MerchantSchema.class {}
MerchantSchema.setClass(Merchant);
