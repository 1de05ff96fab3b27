// The installment schedule of a plan for a principal: the shopper's fee (live loans only), the total, and each
// installment's amount and due date. Pure integer arithmetic in minor units, so the installments always add up exactly to the total; the
// checkout page shows this schedule and the loan books the same one.
import type { InstallmentPlan } from './plan-catalogue.js';

export interface ScheduledInstallment {
  installmentNumber: number;
  amountCents: number;
  /** Calendar date, YYYY-MM-DD (UTC). */
  dueDate: string;
}

export interface InstallmentSchedule {
  principalCents: number;
  feeCents: number;
  totalCents: number;
  installments: ScheduledInstallment[];
}

/** The fee rate of a loan on this plan: the plan's on a live loan, none in test mode (spec: "No fees apply in test mode."). */
export function loanFeeBps(plan: InstallmentPlan, livemode: boolean): number {
  return livemode ? plan.feeBps : 0;
}

/** The shopper's fee of a loan: its fee rate (loanFeeBps) of the principal, rounded half up to the cent. */
export function loanFeeCents(plan: InstallmentPlan, principalCents: number, livemode: boolean): number {
  return Math.floor((principalCents * loanFeeBps(plan, livemode) + 5_000) / 10_000);
}

/**
 * Splits the total into equal installments; the cents that do not divide evenly go to the first installment (so
 * later ones, collected automatically, are the round ones). Due dates count from `purchaseDate` (UTC calendar day).
 * A test-mode loan (`livemode` false) has no fee: its total is the principal.
 */
export function installmentSchedule(plan: InstallmentPlan, principalCents: number, purchaseDate: Date, livemode: boolean): InstallmentSchedule {
  if (!Number.isSafeInteger(principalCents) || principalCents <= 0) throw new Error(`installmentSchedule: principal must be a positive integer, got ${principalCents}`);
  const feeCents = loanFeeCents(plan, principalCents, livemode);
  const totalCents = principalCents + feeCents;
  const base = Math.floor(totalCents / plan.installmentCount);
  const remainder = totalCents - base * plan.installmentCount;
  const offset = plan.firstDue === 'at_checkout' ? 0 : 1;
  const installments = Array.from({ length: plan.installmentCount }, (_, i) => ({
    installmentNumber: i + 1,
    amountCents: base + (i === 0 ? remainder : 0),
    dueDate: isoDate(addIntervals(purchaseDate, plan.interval, i + offset)),
  }));
  return { principalCents, feeCents, totalCents, installments };
}

/** `date` plus `times` intervals, in UTC; a month step keeps the day of month, clamped to the month's last day (Jan 31 → Feb 28). */
export function addIntervals(date: Date, interval: InstallmentPlan['interval'], times: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  if (interval.unit === 'day') return new Date(Date.UTC(y, m, d + interval.count * times));
  const month = m + interval.count * times;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, month, Math.min(d, lastDay)));
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
