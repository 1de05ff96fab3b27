import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { MerchantPlanRepository } from './merchant-plan.repository.js';
import { PLAN_IDS } from './plan-catalogue.js';

/**
 * A merchant's switch for one catalogue plan. A plan without a row has the catalogue's default (enabledByDefault), so
 * a new merchant starts with Pay in 4 on and a plan added to the catalogue later needs no backfill.
 */
export const MerchantPlanSchema = defineEntity({
  name: 'MerchantPlan',
  tableName: 'merchant_plans',
  repository: () => MerchantPlanRepository,
  uniques: [{ properties: ['merchant', 'planId'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    planId: p.enum(PLAN_IDS),
    isEnabled: p.boolean(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class MerchantPlan extends MerchantPlanSchema.class {}
MerchantPlanSchema.setClass(MerchantPlan);
