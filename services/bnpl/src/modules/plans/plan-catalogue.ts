// The installment plans this BNPL provider offers (spec "Installment plan availability": `available`). The catalogue
// is the provider's product list, the same for every merchant; a merchant only switches plans on or off
// (merchant-plan.entity.ts). Amounts are minor units of the session's currency; every supported currency has two
// decimals, so one limit table serves all of them.

export const PLAN_IDS = ['pay_in_4', 'monthly_3', 'monthly_6', 'monthly_12'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface InstallmentPlan {
  id: PlanId;
  name: string;
  /** Number of installments the shopper pays. */
  installmentCount: number;
  /** Spacing of the due dates. */
  interval: { unit: 'day' | 'month'; count: number };
  /** When the first installment is due: at checkout (a down payment) or one interval after it. */
  firstDue: 'at_checkout' | 'after_one_interval';
  /** The shopper's fee on top of the principal, in basis points of the principal (flat, not compounding; 0 = interest free). */
  feeBps: number;
  /** Inclusive limits of the principal (amount_cents) this plan accepts. */
  minAmountCents: number;
  maxAmountCents: number;
  /** Whether a new merchant has the plan switched on. */
  enabledByDefault: boolean;
}

export const PLAN_CATALOGUE: readonly InstallmentPlan[] = [
  { id: 'pay_in_4', name: 'Pay in 4', installmentCount: 4, interval: { unit: 'day', count: 14 }, firstDue: 'at_checkout', feeBps: 0, minAmountCents: 5_000, maxAmountCents: 100_000, enabledByDefault: true },
  { id: 'monthly_3', name: '3 monthly payments', installmentCount: 3, interval: { unit: 'month', count: 1 }, firstDue: 'after_one_interval', feeBps: 0, minAmountCents: 10_000, maxAmountCents: 300_000, enabledByDefault: false },
  { id: 'monthly_6', name: '6 monthly payments', installmentCount: 6, interval: { unit: 'month', count: 1 }, firstDue: 'after_one_interval', feeBps: 600, minAmountCents: 20_000, maxAmountCents: 500_000, enabledByDefault: false },
  { id: 'monthly_12', name: '12 monthly payments', installmentCount: 12, interval: { unit: 'month', count: 1 }, firstDue: 'after_one_interval', feeBps: 1_200, minAmountCents: 50_000, maxAmountCents: 1_000_000, enabledByDefault: false },
];

/** Smallest and largest principal any plan accepts (widget session amount_cents bounds). */
export const MIN_PLAN_AMOUNT_CENTS = Math.min(...PLAN_CATALOGUE.map((p) => p.minAmountCents));
export const MAX_PLAN_AMOUNT_CENTS = Math.max(...PLAN_CATALOGUE.map((p) => p.maxAmountCents));

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function planById(id: PlanId): InstallmentPlan {
  const plan = PLAN_CATALOGUE.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown plan ${id}`);
  return plan;
}

/** Whether the plan accepts this principal. */
export function planCovers(plan: InstallmentPlan, amountCents: number): boolean {
  return amountCents >= plan.minAmountCents && amountCents <= plan.maxAmountCents;
}
