// The eligibility rule of checkout (README Decisions, "Eligibility"): transparent and deterministic, a pure function
// of the session and the merchant's enabled plans. A session is eligible when at least one enabled plan covers its
// amount and, in test mode, the shopper's e-mail is not a decline trigger (the way card networks publish test card
// numbers). Live mode uses the plans' limits only; a real credit decision would plug in here behind the same result.
import { planCovers, type InstallmentPlan } from '../plans/index.js';

/** Why a session is not eligible. */
export type IneligibleReason = 'no_plan_covers_amount' | 'declined';

export type EligibilityDecision = { decision: 'eligible'; plans: InstallmentPlan[] } | { decision: 'ineligible'; reason: IneligibleReason; plans: [] };

export interface EligibilityInput {
  amountCents: number;
  livemode: boolean;
  /** The merchant's enabled plans (MerchantPlanRepository.enabledFor), in catalogue order. */
  enabledPlans: readonly InstallmentPlan[];
  /** The shopper's e-mail: prefilled from the session when the page opens, as entered at confirm. */
  customerEmail: string | null | undefined;
}

/**
 * A test-mode decline trigger: the e-mail's local part is `decline` or ends with `+decline` (any case), e.g.
 * `decline@example.com`, `jo+decline@example.com`.
 */
export function isDeclineTriggerEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at).toLowerCase();
  return local === 'decline' || local.endsWith('+decline');
}

/** The plans checkout may offer for this amount: the enabled ones that cover it, in catalogue order. */
export function plansCovering(enabledPlans: readonly InstallmentPlan[], amountCents: number): InstallmentPlan[] {
  return enabledPlans.filter((plan) => planCovers(plan, amountCents));
}

export function decideEligibility(input: EligibilityInput): EligibilityDecision {
  const plans = plansCovering(input.enabledPlans, input.amountCents);
  if (plans.length === 0) return { decision: 'ineligible', reason: 'no_plan_covers_amount', plans: [] };
  if (!input.livemode && input.customerEmail && isDeclineTriggerEmail(input.customerEmail)) return { decision: 'ineligible', reason: 'declined', plans: [] };
  return { decision: 'eligible', plans };
}
