// Installment plans: the provider's catalogue, each merchant's on/off switches, and the schedule a plan gives a principal.
import { MerchantPlanSchema } from './merchant-plan.entity.js';

export { PLAN_CATALOGUE, PLAN_IDS, MAX_PLAN_AMOUNT_CENTS, MIN_PLAN_AMOUNT_CENTS, isPlanId, planById, planCovers, type InstallmentPlan, type PlanId } from './plan-catalogue.js';
export { addIntervals, installmentSchedule, isoDate, planFeeCents, type InstallmentSchedule, type ScheduledInstallment } from './installment-schedule.js';
export { MerchantPlan, MerchantPlanSchema } from './merchant-plan.entity.js';
export { MerchantPlanRepository } from './merchant-plan.repository.js';

export const planEntities = [MerchantPlanSchema];
