// Which amounts a set of plans covers: the union of their [min, max] limits, as the fewest disjoint ranges. A widget
// session's amount and a payment link's price must fall in one, and the refusal names them.
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { planCovers, type InstallmentPlan } from './plan-catalogue.js';

export interface AmountRange {
  minAmountCents: number;
  maxAmountCents: number;
}

/** The union of the plans' limits, sorted and merged (overlapping or adjacent ranges become one). */
export function coveredRanges(plans: readonly InstallmentPlan[]): AmountRange[] {
  const sorted = [...plans].sort((a, b) => a.minAmountCents - b.minAmountCents);
  const merged: AmountRange[] = [];
  for (const { minAmountCents, maxAmountCents } of sorted) {
    const last = merged.at(-1);
    if (last && minAmountCents <= last.maxAmountCents + 1) last.maxAmountCents = Math.max(last.maxAmountCents, maxAmountCents);
    else merged.push({ minAmountCents, maxAmountCents });
  }
  return merged;
}

/** Whether at least one of the plans accepts this principal. */
export function anyPlanCovers(plans: readonly InstallmentPlan[], amountCents: number): boolean {
  return plans.some((plan) => planCovers(plan, amountCents));
}

export const NO_PLAN_ENABLED_MESSAGE = `No installment plan is enabled for this merchant, so no amount can be financed; enable one with PUT ${MERCHANT_PREFIX}/plans/{plan_id}.`;

/** The refusal of an amount outside every enabled plan's limits, naming the ranges they cover (minor units). */
export function amountNotCoveredMessage(plans: readonly InstallmentPlan[]): string {
  const ranges = coveredRanges(plans).map((r) => `${r.minAmountCents} to ${r.maxAmountCents}`);
  return `Must be within the limits of the merchant's enabled installment plans: ${ranges.join(' or ')} (minor units).`;
}

/** Why checkout could not finance this amount with these (enabled) plans, or null when one of them covers it. */
export function financeableAmountProblem(enabledPlans: readonly InstallmentPlan[], amountCents: number): string | null {
  if (enabledPlans.length === 0) return NO_PLAN_ENABLED_MESSAGE;
  return anyPlanCovers(enabledPlans, amountCents) ? null : amountNotCoveredMessage(enabledPlans);
}
