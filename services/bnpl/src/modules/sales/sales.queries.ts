// The sales module's own SQL over the loans table (read only): the filters as one WHERE clause shared by the list and
// the CSV export, the keyset page, and the export's batches. The order is the list's everywhere: newest first by
// (created_at, id), served by the (merchant_id, created_at) index.
import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared, preparedStatement, type PreparedStatement } from '@tributary/kit';
import type { SalesCursorPosition } from './sales-cursor.js';
import type { SaleView } from './sales.presenter.js';
import type { SalesFilters, SalesListQuery } from './sales.validation.js';

interface SqlPart {
  sql: string;
  params: unknown[];
}

/** created_at as text with PostgreSQL's microseconds, in UTC (the cursor's exact position). */
const POSITION_SQL = `to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** A timestamp as ISO 8601 UTC with milliseconds, like the JSON answers' toISOString(). */
const isoSql = (column: string) => `to_char("${column}" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/**
 * Qualified: ORDER BY reads a bare name as an output column first, and the export's "created_at" is formatted text, by
 * which PostgreSQL would sort every matching row for each batch instead of walking the index.
 */
export const SALES_ORDER_SQL = 'order by "loans"."created_at" desc, "loans"."id" desc';

/** Rows of one export batch: one short statement each. */
export const EXPORT_BATCH_ROWS = 1_000;

export function salesWhere(merchantId: string, filters: SalesFilters, after?: SalesCursorPosition): SqlPart {
  const conditions = ['"merchant_id" = ?'];
  const params: unknown[] = [merchantId];
  if (filters.statuses.length > 0) {
    conditions.push(`"status" in (${filters.statuses.map(() => '?').join(', ')})`);
    params.push(...filters.statuses);
  }
  if (filters.fromInstant) {
    conditions.push('"created_at" >= ?::timestamptz');
    params.push(filters.fromInstant);
  }
  if (filters.toExclusive) {
    conditions.push('"created_at" < ?::timestamptz');
    params.push(filters.toExclusive);
  }
  if (after) {
    conditions.push('("created_at", "id") < (?::timestamptz, ?::uuid)');
    params.push(after.createdAt, after.loanId);
  }
  return { sql: `where ${conditions.join(' and ')}`, params };
}

export interface SalesPageRow {
  id: string;
  position: string;
}

/** One page of ids with their exact positions, plus one more row to tell whether another page follows. */
export async function salesPageRows(em: EntityManager, merchantId: string, query: SalesListQuery): Promise<SalesPageRow[]> {
  const where = salesWhere(merchantId, query, query.after);
  return em.getConnection().execute<SalesPageRow[]>(
    `select "id", ${POSITION_SQL} as "position" from "loans" ${where.sql} ${SALES_ORDER_SQL} limit ?`,
    [...where.params, query.limit + 1],
    'all',
    em.getTransactionContext(),
  );
}

/** A row of salesPageViews: the sale as the list presents it, and its exact keyset position. */
export type SaleViewRow = SaleView & { position: string };

/**
 * The same page as salesPageRows with the list's columns, in one statement, for an answer that only presents it (the
 * REST list): no entity is hydrated, no installment loaded, and PostgreSQL formats the timestamps (no Date per field).
 */
export async function salesPageViews(em: EntityManager, merchantId: string, query: SalesListQuery): Promise<SaleViewRow[]> {
  const where = salesWhere(merchantId, query, query.after);
  return em.getConnection().execute<SaleViewRow[]>(
    // Named as SaleView's fields; the formatted timestamps under other names than their columns, so ORDER BY
    // "created_at" stays the column (the index's order), not the text.
    `select "id", "loan_number" as "loanNumber", "merchant_id" as "merchantId", "principal_cents" as "principalCents",
      "fee_cents" as "feeCents", "total_cents" as "totalCents", "currency", "status", "purchase_reference" as "purchaseReference",
      ${isoSql('disbursed_at')} as "disbursedAt", "plan_id" as "planId", "livemode", ${isoSql('created_at')} as "createdAt",
      ${isoSql('updated_at')} as "updatedAt", ${POSITION_SQL} as "position"
      from "loans" ${where.sql} ${SALES_ORDER_SQL} limit ?`,
    [...where.params, query.limit + 1],
    'all',
    em.getTransactionContext(),
  );
}

/** One CSV row as the database formats it (timestamps as text, so no Date is made per row). */
export interface SaleExportRow {
  loan_id: string;
  loan_number: string;
  status: string;
  plan_id: string;
  principal_cents: number;
  fee_cents: number;
  total_cents: number;
  currency: string;
  purchase_reference: string;
  customer_email: string;
  customer_phone: string | null;
  livemode: boolean;
  disbursed_at: string | null;
  created_at: string;
}

/** The export's columns, as SaleExportRow names them. */
const EXPORT_COLUMNS_SQL = `"id" as "loan_id", "loan_number", "status", "plan_id", "principal_cents", "fee_cents", "total_cents", "currency",
      "purchase_reference", "customer_email", "customer_phone", "livemode", ${isoSql('disbursed_at')} as "disbursed_at", ${isoSql('created_at')} as "created_at"`;

/** The whole export as one select: the columns of SaleExportRow, in order (what the benchmark's psql baseline copies). */
export function salesExportSql(merchantId: string, filters: SalesFilters): SqlPart {
  const where = salesWhere(merchantId, filters);
  return { sql: `select ${EXPORT_COLUMNS_SQL}\n      from "loans" ${where.sql} ${SALES_ORDER_SQL}`, params: where.params };
}

/**
 * The select of one export batch: the EXPORT_BATCH_ROWS rows after the loan `afterLoanId` (from the newest when
 * undefined). The position is read from that loan's own row (one primary-key lookup), so the rows carry no position
 * column: a million exported rows are a million strings fewer to parse.
 */
export function salesExportBatchSql(merchantId: string, filters: SalesFilters, afterLoanId?: string): SqlPart {
  const where = salesWhere(merchantId, filters);
  const after = afterLoanId ? ' and ("created_at", "id") < ((select "created_at" from "loans" where "id" = ?::uuid), ?::uuid)' : '';
  return {
    sql: `select ${EXPORT_COLUMNS_SQL} from "loans" ${where.sql}${after} ${SALES_ORDER_SQL} limit ?`,
    params: [...where.params, ...(afterLoanId ? [afterLoanId, afterLoanId] : []), EXPORT_BATCH_ROWS],
  };
}

/** Reads one export batch: the first when `afterLoanId` is undefined, else the one after that loan. */
export type SalesExportBatchReader = (afterLoanId?: string) => Promise<SaleExportRow[]>;

/**
 * The batch reader of one export. Its two statements (the first batch, the batches after a loan) run as named prepared
 * statements on the pool (kit executePrepared): parsed and planned once per connection, the values sent apart. Through
 * MikroORM's execute (values formatted into the text, a plan per batch) the 1,000,000-loan benchmark's server grew by
 * 220 MiB instead of 20 and ran a third slower.
 */
export function salesExportBatchReader(em: EntityManager, merchantId: string, filters: SalesFilters): SalesExportBatchReader {
  const statements = new Map<boolean, PreparedStatement>();
  return (afterLoanId) => {
    const { sql, params } = salesExportBatchSql(merchantId, filters, afterLoanId);
    const after = afterLoanId !== undefined;
    if (!statements.has(after)) statements.set(after, preparedStatement(sql));
    return executePrepared<SaleExportRow>(em, statements.get(after)!, params);
  };
}

/**
 * Every export row, `first` (the first batch, already read) then batch after batch, each read with one short
 * statement (keyset, like the list's pages) when the consumer asks for it. A client that reads slowly, or not at all,
 * holds one batch in memory and none of the pool's connections. Rows booked during the download are newer than its
 * first row and not in it; a row whose status changes meanwhile is in it at most once (its position never changes).
 */
export async function* salesExportBatches(read: SalesExportBatchReader, first: SaleExportRow[]): AsyncGenerator<SaleExportRow[]> {
  let after = lastOfFullBatch(first);
  if (first.length > 0) yield first;
  while (after !== undefined) {
    // Only the last loan id is kept across the read, not the batch it ends.
    const batch = await read(after);
    after = lastOfFullBatch(batch);
    if (batch.length > 0) yield batch;
  }
}

/** The loan id the next batch starts after; undefined when `batch` was the last (short) one. */
function lastOfFullBatch(batch: SaleExportRow[]): string | undefined {
  return batch.length === EXPORT_BATCH_ROWS ? batch.at(-1)!.loan_id : undefined;
}
