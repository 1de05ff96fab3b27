import { defineEntity, p } from '@mikro-orm/core';
import { MerchantRepository } from './merchant.repository.js';

export const SETTLEMENT_CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type SettlementCadence = (typeof SETTLEMENT_CADENCES)[number];

/** A merchant selling with BNPL. Settlement cadence is set by a platform administrator, outside the API. */
export const MerchantSchema = defineEntity({
  name: 'Merchant',
  tableName: 'merchants',
  repository: () => MerchantRepository,
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    name: p.string().length(191),
    settlementCadence: p.enum(SETTLEMENT_CADENCES).default('weekly'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Merchant extends MerchantSchema.class {}
MerchantSchema.setClass(Merchant);
