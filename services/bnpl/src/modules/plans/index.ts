// Installment plans: the provider's catalogue, each merchant's on/off switches, and the schedule a plan gives a principal.
import { MerchantPlanSchema } from './merchant-plan.entity.js';

export { PLAN_CATALOGUE, PLAN_IDS, MAX_PLAN_AMOUNT_CENTS, MIN_PLAN_AMOUNT_CENTS, isPlanId, planById, planCovers, type InstallmentPlan, type PlanId } from './plan-catalogue.js';
export { addIntervals, installmentSchedule, isoDate, loanFeeBps, loanFeeCents, type InstallmentSchedule, type ScheduledInstallment } from './installment-schedule.js';
export { MerchantPlan, MerchantPlanSchema } from './merchant-plan.entity.js';
export { MerchantPlanRepository } from './merchant-plan.repository.js';
export { ENABLED_PLANS_CACHE_SIZE, ENABLED_PLANS_TTL_MS, EnabledPlansCache, type EnabledPlansCacheOptions } from './enabled-plans-cache.js';
export { CURRENCY_CODE_PATTERN, SUPPORTED_CURRENCIES, isSupportedCurrency, type SupportedCurrency } from './supported-currencies.js';
export { NO_PLAN_ENABLED_MESSAGE, amountNotCoveredMessage, anyPlanCovers, coveredRanges, financeableAmountProblem, type AmountRange } from './plan-coverage.js';

export const planEntities = [MerchantPlanSchema];
export { PlanService, type ConfiguredPlan, type PlanOverview } from './plan.service.js';
export { availablePlanResource, planApi } from './plan.openapi.js';
export { presentAvailablePlan, presentConfiguredPlan, presentPlanOverview } from './plan.presenter.js';
export { planRoutes } from './plan.routes.js';
export { IS_ENABLED_MESSAGE, setPlanEnabledBody } from './plan.validation.js';
export { planResolvers } from './plan.resolvers.js';
