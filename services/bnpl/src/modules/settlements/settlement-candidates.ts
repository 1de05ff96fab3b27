// What a cut may cover: every sale, refund and adjustment of the merchant that no batch covers yet and happened before
// the end of the period being closed (stragglers from an earlier period that was never cut are covered by the next
// cut, never lost). A sale counts once funded (disbursed_at); a processed refund once its sale is funded, so a refund
// made before funding is deducted in the batch that pays the sale.
import type { EntityManager } from '@mikro-orm/postgresql';

export interface Candidate {
  kind: 'sale' | 'refund' | 'adjustment';
  id: string;
  /** Signed, as the line stores it: +principal, −refund, ±adjustment. */
  amountCents: number;
  currency: string;
  livemode: boolean;
}

const SALES = `select l."id", l."principal_cents" as "amount", l."currency", l."livemode" from "loans" l
  where l."merchant_id" = ? and l."disbursed_at" is not null and l."disbursed_at" < ?
    and not exists (select 1 from "settlement_lines" sl where sl."loan_id" = l."id" and sl."kind" = 'sale')
  order by l."disbursed_at", l."id"`;

const REFUNDS = `select r."id", -r."amount_cents" as "amount", r."currency", r."livemode" from "refunds" r join "loans" l on l."id" = r."loan_id"
  where r."merchant_id" = ? and r."status" = 'processed' and r."processed_at" < ? and l."disbursed_at" is not null and l."disbursed_at" < ?
    and not exists (select 1 from "settlement_lines" sl where sl."refund_id" = r."id")
  order by r."processed_at", r."id"`;

const ADJUSTMENTS = `select a."id", a."amount_cents" as "amount", a."currency", a."livemode" from "settlement_adjustments" a
  where a."merchant_id" = ? and a."created_at" < ?
    and not exists (select 1 from "settlement_lines" sl where sl."adjustment_id" = a."id")
  order by a."created_at", a."id"`;

type Row = { id: string; amount: number | string; currency: string; livemode: boolean };

/** Everything not yet settled before `until`, in the caller's transaction. */
export async function unsettledBefore(tx: EntityManager, merchantId: string, until: Date): Promise<Candidate[]> {
  const connection = tx.getConnection();
  const context = tx.getTransactionContext();
  const read = async (kind: Candidate['kind'], sql: string, params: unknown[]) =>
    (await connection.execute<Row[]>(sql, params, 'all', context)).map((row) => ({ kind, id: row.id, amountCents: Number(row.amount), currency: row.currency, livemode: row.livemode }));
  return [
    ...(await read('sale', SALES, [merchantId, until])),
    ...(await read('refund', REFUNDS, [merchantId, until, until])),
    ...(await read('adjustment', ADJUSTMENTS, [merchantId, until])),
  ];
}

/** Candidates by batch key (currency and mode), in a stable order. */
export function groupByBatch(candidates: readonly Candidate[]): Array<{ currency: string; livemode: boolean; items: Candidate[] }> {
  const groups = new Map<string, { currency: string; livemode: boolean; items: Candidate[] }>();
  for (const candidate of candidates) {
    const key = `${candidate.currency}:${candidate.livemode}`;
    const group = groups.get(key) ?? { currency: candidate.currency, livemode: candidate.livemode, items: [] };
    group.items.push(candidate);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.currency.localeCompare(b.currency) || Number(a.livemode) - Number(b.livemode));
}
