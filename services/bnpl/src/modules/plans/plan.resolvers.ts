import { ForbiddenError, enumMapping } from '@tributary/kit';
import type { BnplPlanFirstDue, BnplPlanInterval, Resolvers } from '../../graphql/resolvers-types.js';
import type { BnplPrincipal } from '../merchant-auth/index.js';
import type { InstallmentPlan } from './plan-catalogue.js';

const interval = enumMapping<InstallmentPlan['interval']['unit'], BnplPlanInterval>({ day: 'DAY', month: 'MONTH' });
const firstDue = enumMapping<InstallmentPlan['firstDue'], BnplPlanFirstDue>({ at_checkout: 'AT_CHECKOUT', after_one_interval: 'AFTER_ONE_INTERVAL' });

export const DASHBOARD_ONLY_MESSAGE = 'Managing installment plans requires a dashboard token.';

/** Plans are managed from the dashboard (REST: DT only); an API key pair may read them but not switch them. */
function dashboardOnly(principal: BnplPrincipal): BnplPrincipal {
  if (principal.kind !== 'dashboard') throw new ForbiddenError(DASHBOARD_ONLY_MESSAGE);
  return principal;
}

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents: PlanOverview, ConfiguredPlan, InstallmentPlan).
export const planResolvers = {
  Mutation: {
    setBnplPlanEnabled: async (_parent, { planId, isEnabled }, ctx) => ctx.plans.setEnabled(dashboardOnly(await ctx.principal()).merchantId, planId, isEnabled),
  },
  BnplMerchant: {
    plans: async (_merchant, _args, ctx) => ctx.plans.overview((await ctx.principal()).merchantId),
  },
  BnplConfiguredPlan: {
    plan: (configured) => configured.plan.id,
  },
  BnplPlan: {
    plan: (plan) => plan.id,
    interval: (plan) => interval(plan.interval.unit),
    intervalCount: (plan) => plan.interval.count,
    firstDue: (plan) => firstDue(plan.firstDue),
  },
} satisfies Resolvers;
