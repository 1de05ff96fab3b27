// The sales export's CSV (GET /api/v1/merchant/sales/export.csv): one row per loan, the columns below in this order
// after a header row, RFC 4180 (csv-stringify: CRLF line ends, a field holding a comma, quote, CR or LF is quoted and
// its quotes doubled). Text a spreadsheet would run as a formula (a cell starting with =, +, -, @, tab or CR) is
// prefixed with a single quote (OWASP "CSV injection"), so an order reference like `=HYPERLINK(...)` stays text;
// E.164 phones therefore read `'+14155550123`.
import { stringify, type Stringifier } from 'csv-stringify';
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

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet would evaluate, made inert with a leading single quote; other text unchanged. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A transform from SaleExportRow objects to CSV text (header first); null cells are empty. */
export function salesCsvStringifier(): Stringifier {
  return stringify({
    header: true,
    columns: [...SALES_CSV_COLUMNS],
    record_delimiter: 'windows',
    cast: { string: neutraliseFormula, boolean: (value) => (value ? 'true' : 'false') },
  });
}
