// Settlement periods and figures, as pure functions (no database, no clock of their own): which period a cut at a
// given instant closes for each cadence, the batch name, the MDR of a sale and a batch's net. Every rule has its unit
// test in test/settlement-period.test.ts and its row in the README's Decisions table.
import type { SettlementCadence } from '../merchants/index.js';

export const SETTLEMENT_STATUSES = ['pending', 'paid'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** A half-open period of whole UTC days: [start, end). Dates as YYYY-MM-DD. */
export interface SettlementPeriod {
  start: string;
  /** Exclusive: the first day after the period. */
  end: string;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const startOfUtcDay = (at: Date): number => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());

/**
 * The last complete period before `at` (UTC): daily = the day before; weekly = the ISO week (Monday to Sunday) before
 * the one `at` falls in; monthly = the calendar month before. A cut at any moment of a day closes the same period, so
 * re-running a cut is idempotent.
 */
export function closedPeriod(cadence: SettlementCadence, at: Date): SettlementPeriod {
  const today = startOfUtcDay(at);
  if (cadence === 'daily') return { start: isoDay(today - DAY_MS), end: isoDay(today) };
  if (cadence === 'weekly') {
    const weekday = (new Date(today).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    const thisMonday = today - weekday * DAY_MS;
    return { start: isoDay(thisMonday - 7 * DAY_MS), end: isoDay(thisMonday) };
  }
  const firstOfMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  return { start: isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1)), end: isoDay(firstOfMonth) };
}

/** The period's bounds as instants (UTC midnight). */
export function periodBounds(period: SettlementPeriod): { from: Date; to: Date } {
  return { from: new Date(`${period.start}T00:00:00.000Z`), to: new Date(`${period.end}T00:00:00.000Z`) };
}

/**
 * The spec's `batch`: readable and unique per merchant, e.g. `2026-11-16..2026-11-22-USD` (last day inclusive), with
 * `-test` for test-mode batches.
 */
export function batchName(period: SettlementPeriod, currency: string, livemode: boolean): string {
  const lastDay = isoDay(Date.parse(`${period.end}T00:00:00.000Z`) - DAY_MS);
  return `${period.start}..${lastDay}-${currency}${livemode ? '' : '-test'}`;
}

/**
 * The merchant discount of one sale: principal × bps / 10 000, rounded half up to the cent, per sale (so each sale's
 * discount can be checked on its own and the batch's is their sum). Test mode: none.
 */
export function saleMdrCents(principalCents: number, mdrBps: number, livemode: boolean): number {
  if (!livemode) return 0;
  return Math.floor((principalCents * mdrBps + 5_000) / 10_000);
}

/** The spec's figures of a batch: net = gross − mdr − refunds + adjustments (may be negative: the merchant owes it). */
export function settlementNet(figures: { grossCents: number; mdrCents: number; refundsCents: number; adjustmentsCents: number }): number {
  return figures.grossCents - figures.mdrCents - figures.refundsCents + figures.adjustmentsCents;
}

/** pending → paid when the payout is made; anything else is refused (a replayed payout finds it paid). */
export function applyPayout(status: SettlementStatus): { ok: true; status: 'paid' } | { ok: false; status: SettlementStatus } {
  return status === 'pending' ? { ok: true, status: 'paid' } : { ok: false, status };
}
