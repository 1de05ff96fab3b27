// The plans bodies: `configured` entries ({plan, is_enabled}) and the catalogue's `available` elements.
import type { z } from 'zod';
import type { InstallmentPlan } from './plan-catalogue.js';
import type { availablePlanResource, configuredPlanResource, planOverviewResponse } from './plan.openapi.js';
import type { ConfiguredPlan, PlanOverview } from './plan.service.js';

export function presentConfiguredPlan(configured: ConfiguredPlan): z.input<typeof configuredPlanResource> {
  return { plan: configured.plan.id, is_enabled: configured.isEnabled };
}

export function presentAvailablePlan(plan: InstallmentPlan): z.input<typeof availablePlanResource> {
  return {
    plan: plan.id,
    name: plan.name,
    installment_count: plan.installmentCount,
    interval: plan.interval.unit,
    interval_count: plan.interval.count,
    first_due: plan.firstDue,
    fee_bps: plan.feeBps,
    min_amount_cents: plan.minAmountCents,
    max_amount_cents: plan.maxAmountCents,
    enabled_by_default: plan.enabledByDefault,
  };
}

export function presentPlanOverview(overview: PlanOverview): z.input<typeof planOverviewResponse> {
  return { configured: overview.configured.map(presentConfiguredPlan), available: overview.available.map(presentAvailablePlan) };
}
