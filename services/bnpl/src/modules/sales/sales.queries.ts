// The sales module's own SQL over the loans table (read only): the filters as one WHERE clause shared by the list and
// the CSV export, the keyset page, and the export's batches. The order is the list's everywhere: newest first by
// (created_at, id), served by the (merchant_id, created_at) index.
import type { EntityManager } from '@mikro-orm/postgresql';
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
export const SALES_ORDER_SQL = 'order by "created_at" desc, "id" desc';

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

/** An export row with its exact keyset position, where the next batch starts. */
export type SaleExportBatchRow = SaleExportRow & { position: string };

/** The EXPORT_BATCH_ROWS export rows after `after` (from the newest when undefined), in the export's order. */
export async function salesExportBatch(em: EntityManager, merchantId: string, filters: SalesFilters, after?: SalesCursorPosition): Promise<SaleExportBatchRow[]> {
  const where = salesWhere(merchantId, filters, after);
  return em.getConnection().execute<SaleExportBatchRow[]>(
    `select ${EXPORT_COLUMNS_SQL}, ${POSITION_SQL} as "position" from "loans" ${where.sql} ${SALES_ORDER_SQL} limit ?`,
    [...where.params, EXPORT_BATCH_ROWS],
    'all',
    em.getTransactionContext(),
  );
}

/**
 * Every export row, `first` (the first batch, already read) then batch after batch, each read with one short
 * statement (keyset, like the list's pages) only when the consumer asks for it. No connection is held between
 * batches, so a client that reads slowly, or not at all, holds none of the pool. Rows booked during the download are
 * newer than its first row and not in it; a row whose status changes meanwhile is in it at most once (its position
 * never changes).
 */
export async function* salesExportBatches(em: EntityManager, merchantId: string, filters: SalesFilters, first: SaleExportBatchRow[]): AsyncGenerator<SaleExportBatchRow[]> {
  let batch = first;
  yield batch;
  while (batch.length === EXPORT_BATCH_ROWS) {
    const last = batch.at(-1)!;
    batch = await salesExportBatch(em, merchantId, filters, { createdAt: last.position, loanId: last.loan_id });
    if (batch.length > 0) yield batch;
  }
}
