// The floor `payment-requests-list` is measured against: a bare Express 5 app answering the first page of an account's
// payment requests with one SELECT of the same rows (same table, order and page size as crypto's list, the asset's
// code and chain joined, the total counted by a subquery) that already formats every field as the API shows it (status
// with the deadline applied, amounts as plain decimal text, ISO timestamps), serialised to the same JSON. No
// authentication, validation, ORM hydration or presenter. SQL through the same driver and pool as crypto (MikroORM's
// connection, pg under it: crypto has no pg dependency of its own).
// Run by the benchmark in its own process: PORT, DATABASE_URL, ACCOUNT_ID.
import express from 'express';
import { PER_PAGE_DEFAULT } from '../modules/payment-requests/index.js';
import { openDatabase } from '../service.js';
import { PAYMENT_REQUESTS_PATH } from './merchant-api.js';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The spec's fields in the spec's order, then the account's total (an uncorrelated subquery: counted once). The page
 * is cut first and only its 25 rows are joined and formatted: there is no (account_id, created_at) index, so the
 * account's rows are sorted either way, and formatting or joining all of them before the cut costs more than the page.
 */
const PAGE = `select r."slug" as "id", r."type", r."title", r."description",
    case when r."status" in ('pending', 'partial') and r."expires_at" <= now() then 'expired' else r."status" end as "status",
    a."code" as "asset", a."chain", r."address",
    trim_scale(r."amount_requested")::text as "amount_requested", trim_scale(r."amount_paid")::text as "amount_paid",
    trim_scale(greatest(r."amount_requested" - r."amount_paid", 0))::text as "amount_outstanding",
    ${iso('r."expires_at"')} as "expires_at", ${iso('r."paid_at"')} as "paid_at", r."redirect_url", r."reference", r."webhook_url",
    ${iso('r."created_at"')} as "created_at", (select count(*) from "payment_requests" where "account_id" = ?) as "total"
  from (select * from "payment_requests" where "account_id" = ? order by "created_at" desc, "id" desc limit ?) r
  join "assets" a on a."id" = r."asset_id" order by r."created_at" desc, r."id" desc`;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const accountId = Number(required('ACCOUNT_ID'));
const orm = await openDatabase(required('DATABASE_URL'));
const connection = orm.em.getConnection();
const app = express();
app.get('/readyz', (_req, res) => {
  res.send('ok');
});
app.get(PAYMENT_REQUESTS_PATH, async (_req, res) => {
  const rows = await connection.execute<Array<Record<string, unknown> & { total: string }>>(PAGE, [accountId, accountId, PER_PAGE_DEFAULT]);
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  res.json({ data: rows.map(({ total: _total, ...row }) => row), current_page: 1, per_page: PER_PAGE_DEFAULT, total });
});
const server = app.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => {
    void orm.close().then(() => process.exit(0));
  });
  server.closeIdleConnections();
});
