// The floor `widget-session-create` is measured against: a bare Express 5 + pg app that does what any widget-session
// create must do at the least — parse the JSON body, INSERT one row of widget_sessions (the same table, constraints
// and indexes as bnpl's, from bnpl's migrations), answer 201 with the token, checkout URL and deadline. No
// authentication, validation, plan check, ORM, transaction, outbox or logging: everything bnpl does beyond this is
// what the ratio prices. Its answer is the real one's: 201, Location, {session_token, checkout_url, expires_at}.
// Run by the benchmark in its own process: PORT, DATABASE_URL, MERCHANT_ID, PUBLIC_BASE_URL.
import { randomUUID } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { WIDGET_SESSIONS_PATH } from '../api-paths.js';
import { checkoutUrl, generateSessionToken, sessionPath, WIDGET_SESSION_LIFETIME_MINUTES } from '../modules/widget-sessions/index.js';

const SESSION_LIFETIME_MS = WIDGET_SESSION_LIFETIME_MINUTES * 60_000;

const INSERT = `insert into widget_sessions
  (id, token, merchant_id, livemode, status, amount_cents, currency, order_reference, customer_email, customer_phone,
   purchase_description, success_url, cancel_url, expires_at, created_at, updated_at)
  values ($1, $2, $3, false, 'initialized', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`;

interface Body {
  amount_cents: number;
  currency: string;
  order_reference: string;
  customer_email?: string;
  customer_phone?: string;
  purchase_description?: string;
  success_url: string;
  cancel_url: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const merchantId = required('MERCHANT_ID');
const publicBaseUrl = required('PUBLIC_BASE_URL');
// pg.Pool's default size (10) is MikroORM's too.
const pool = new pg.Pool({ connectionString: required('DATABASE_URL') });
const app = express();
app.use(express.json());
app.post(WIDGET_SESSIONS_PATH, async (req, res) => {
  const body = req.body as Body;
  const token = generateSessionToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await pool.query(INSERT, [
    randomUUID(),
    token,
    merchantId,
    body.amount_cents,
    body.currency,
    body.order_reference,
    body.customer_email ?? null,
    body.customer_phone ?? null,
    body.purchase_description ?? null,
    body.success_url,
    body.cancel_url,
    expiresAt,
    now,
  ]);
  res
    .status(201)
    .location(sessionPath(token))
    .json({ session_token: token, checkout_url: checkoutUrl(publicBaseUrl, token), expires_at: expiresAt.toISOString() });
});
app.get('/', (_req, res) => {
  res.json({ ok: true });
});

const server = app.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => {
    void pool.end().then(() => process.exit(0));
  });
  server.closeIdleConnections();
});
