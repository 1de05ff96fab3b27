import type { Settlement, SettlementLine } from './settlement.entity.js';

const DAY_MS = 86_400_000;
/** The stored period end is exclusive; the wire shows the last day of the period. */
const lastDayOf = (settlement: Settlement): string => new Date(Date.parse(`${settlement.periodEnd}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** A batch on the wire (spec "Settlement (payout)": id, batch, the five figures, currency, status; the rest decided). */
export function presentSettlement(settlement: Settlement) {
  return {
    id: settlement.id,
    batch: settlement.batch,
    status: settlement.status,
    gross_cents: settlement.grossCents,
    mdr_cents: settlement.mdrCents,
    refunds_cents: settlement.refundsCents,
    adjustments_cents: settlement.adjustmentsCents,
    net_cents: settlement.netCents,
    currency: settlement.currency,
    livemode: settlement.livemode,
    cadence: settlement.cadence,
    period_start: settlement.periodStart,
    period_end: lastDayOf(settlement),
    mdr_bps: settlement.mdrBps,
    created_at: settlement.createdAt.toISOString(),
    paid_at: settlement.paidAt?.toISOString() ?? null,
  };
}

/** A batch with everything it covers: each sale, refund and adjustment with its amount, adding up to the figures. */
export function presentSettlementWithLines(settlement: Settlement, lines: readonly SettlementLine[]) {
  return {
    ...presentSettlement(settlement),
    sales: lines
      .filter((line) => line.kind === 'sale' && line.loan)
      .map((line) => ({ loan_id: line.loan!.id, loan_number: line.loan!.loanNumber, principal_cents: line.amountCents, mdr_cents: line.mdrCents })),
    refunds: lines.filter((line) => line.kind === 'refund' && line.refund).map((line) => ({ refund_id: line.refund!.id, loan_id: line.refund!.loan.id, amount_cents: -line.amountCents })),
    adjustments: lines
      .filter((line) => line.kind === 'adjustment' && line.adjustment)
      .map((line) => ({ adjustment_id: line.adjustment!.id, amount_cents: line.amountCents, reason: line.adjustment!.reason })),
  };
}
