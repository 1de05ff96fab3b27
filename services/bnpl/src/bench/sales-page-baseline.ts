// The floor `sales-page` is measured against: a bare Express 5 + pg app answering the merchant's first sales page with
// one SELECT of the same rows (the same loans table, order, index and page size as bnpl's list, one row more to tell
// whether a next page follows) that already formats the timestamps as the API shows them, serialised to the same JSON
// (the next page's cursor encoded as bnpl encodes it). No authentication, validation, ORM hydration or presenter.
// Run by the benchmark in its own process: PORT, DATABASE_URL, MERCHANT_ID.
import express from 'express';
import pg from 'pg';
import { MERCHANT_PREFIX } from '../api-paths.js';
import { encodeSalesCursor, SALES_PAGE_DEFAULT } from '../modules/sales/index.js';

const iso = (column: string) => `to_char("${column}" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The list's fields in its order, then the row's exact keyset position (microseconds) for the cursor. The order names
 * the table's columns: a bare "created_at" would be the formatted text of the same name, sorted after formatting all
 * of the merchant's rows instead of read in order from the (merchant_id, created_at) index.
 */
const PAGE = `select "id" as "loan_id", "loan_number", "merchant_id", "principal_cents", "fee_cents", "total_cents", "currency", "status",
    "purchase_reference", ${iso('disbursed_at')} as "disbursed_at", "plan_id", "livemode", ${iso('created_at')} as "created_at", ${iso('updated_at')} as "updated_at",
    to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "position"
  from "loans" where "merchant_id" = $1 order by "loans"."created_at" desc, "loans"."id" desc limit $2`;

interface Row {
  loan_id: string;
  position: string;
  [column: string]: unknown;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const merchantId = required('MERCHANT_ID');
// pg.Pool's default size (10) is MikroORM's too.
const pool = new pg.Pool({ connectionString: required('DATABASE_URL') });
const app = express();
app.get('/', (_req, res) => {
  res.json({ ok: true });
});
app.get(`${MERCHANT_PREFIX}/sales`, async (_req, res) => {
  const { rows } = await pool.query<Row>(PAGE, [merchantId, SALES_PAGE_DEFAULT + 1]);
  const page = rows.slice(0, SALES_PAGE_DEFAULT);
  const last = page.at(-1);
  const nextCursor = rows.length > SALES_PAGE_DEFAULT && last ? encodeSalesCursor({ createdAt: last.position, loanId: last.loan_id }) : null;
  res.json({ data: page.map(({ position: _position, ...sale }) => sale), next_cursor: nextCursor });
});

const server = app.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => {
    void pool.end().then(() => process.exit(0));
  });
  server.closeIdleConnections();
});
