// The sales export's CSV (GET /api/v1/merchant/sales/export.csv): one row per loan, the columns below in this order
// after a header row, RFC 4180 (csv-stringify: CRLF line ends, a field holding a comma, quote, CR or LF is quoted and
// its quotes doubled; with CRLF records csv-stringify would leave a lone LF unquoted, hence quoted_match). Text a
// spreadsheet would run as a formula (a cell starting with =, +, -, @, tab or CR, or their full-width forms) is prefixed
// with a single quote (csv-stringify's escape_formulas, after OWASP "CSV injection"), so an order reference like
// `=HYPERLINK(...)` stays text; E.164 phones therefore read `'+14155550123`. Numbers are never prefixed.
import { stringify, type Options } from 'csv-stringify/sync';
import type { SaleExportRow } from './sales.queries.js';

/** The export's columns, in order: the header row's names. */
export const SALES_CSV_COLUMNS = [
  'loan_id',
  'loan_number',
  'status',
  'plan_id',
  'principal_cents',
  'fee_cents',
  'total_cents',
  'currency',
  'purchase_reference',
  'customer_email',
  'customer_phone',
  'livemode',
  'disbursed_at',
  'created_at',
] as const satisfies ReadonlyArray<keyof SaleExportRow>;

export const SALES_CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const SALES_CSV_FILENAME = 'sales.csv';

/**
 * Rows per CSV chunk: one csv-stringify call and one response write per batch rather than per row. Small enough
 * (about 30 KB of text) that a chunk stays in V8's young generation: text of 128 KB or more would go to the
 * large-object space, which only a full GC frees, and the process would grow with the export.
 */
export const SALES_CSV_BATCH_ROWS = 200;

const CSV_OPTIONS: Options = {
  columns: [...SALES_CSV_COLUMNS],
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
  escape_formulas: true,
  cast: { boolean: (value) => (value ? 'true' : 'false') },
};

/**
 * The CSV text of `rows`, header first, in chunks of SALES_CSV_BATCH_ROWS records; pulls the next rows only when the
 * consumer asks for the next chunk (so a slow reader leaves them in the database cursor). No rows: the header alone.
 */
export async function* salesCsvChunks(rows: AsyncIterable<SaleExportRow>): AsyncGenerator<string> {
  let header = true;
  let batch: unknown[][] = [];
  for await (const row of rows) {
    // Arrays in column order: csv-stringify reads an object's fields through a lodash-style path lookup per cell.
    batch.push(SALES_CSV_COLUMNS.map((column) => row[column]));
    if (batch.length === SALES_CSV_BATCH_ROWS) {
      yield stringify(batch, { ...CSV_OPTIONS, header });
      header = false;
      batch = [];
    }
  }
  if (batch.length > 0 || header) yield stringify(batch, { ...CSV_OPTIONS, header });
}
