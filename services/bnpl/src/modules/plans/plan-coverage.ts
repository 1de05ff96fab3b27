// Which amounts a set of plans covers: the union of their [min, max] limits, as the fewest disjoint ranges. A widget
// session's amount must fall in one (widget-session.validation.ts), and the refusal names them.
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
