// The floor `payment-request-create` is measured against: a bare Express 5 app that does what any payment request
// create must do at the least: parse the JSON body, derive the next receive address from the account's key (the same
// derivation and key as crypto's, the index counted in memory), INSERT one row of payment_requests (the same table,
// constraints and indexes, from crypto's migrations) and answer 201 with the request as the real create shows it. No
// authentication, validation, asset lookup, idempotency, key cursor row, ORM entity, transaction, outbox or logging:
// everything crypto does beyond this is what the ratio prices. SQL through the same driver and pool as crypto
// (MikroORM's connection, pg under it: crypto has no pg dependency of its own).
// Run by the benchmark in its own process: PORT, DATABASE_URL, ACCOUNT_ID.
import express from 'express';
import { randomChars } from '@tributary/kit';
import { assetDefinition } from '../modules/assets/index.js';
import { SLUG_LENGTH, TTL_MINUTES_DEFAULT } from '../modules/payment-requests/index.js';
import { deriveReceiveAddress } from '../modules/receive-addresses/index.js';
import { openDatabase } from '../service.js';
import { BENCH_ASSET, BENCH_NETWORK, PAYMENT_REQUESTS_PATH } from './merchant-api.js';

/** An invoice's deadline when the body sets none (the spec's default ttl_minutes). */
const TTL_MS = TTL_MINUTES_DEFAULT * 60_000;

const INSERT = `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "description", "reference", "chain",
    "address", "network", "address_conflict", "address_index", "amount_requested", "amount_paid", "expires_at", "webhook_url", "redirect_url", "created_at", "updated_at")
  values (?, ?, ?, 'invoice', 'pending', ?, ?, ?, ?, ?, ?, false, ?, ?, 0, ?, ?, ?, ?, ?) returning "id"`;

interface Body {
  title: string;
  amount: string;
  description?: string | null;
  reference?: string | null;
  webhook_url?: string | null;
  redirect_url?: string | null;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const accountId = Number(required('ACCOUNT_ID'));
const asset = assetDefinition(BENCH_ASSET);
const orm = await openDatabase(required('DATABASE_URL'));
const connection = orm.em.getConnection();
const [key] = await connection.execute<Array<{ xpub: string }>>('select "xpub" from "account_xpubs" where "account_id" = ? and "asset" = ?', [accountId, BENCH_ASSET]);
if (!key) throw new Error(`account ${accountId} has no ${BENCH_ASSET} key`);
let nextIndex = 0;

const app = express();
app.use(express.json());
app.get('/readyz', (_req, res) => {
  res.send('ok');
});
app.post(PAYMENT_REQUESTS_PATH, async (req, res) => {
  const body = req.body as Body;
  const index = nextIndex++;
  const address = deriveReceiveAddress(BENCH_NETWORK, BENCH_ASSET, key.xpub, index);
  const slug = randomChars(SLUG_LENGTH);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + TTL_MS);
  const [row] = await connection.execute<Array<{ id: number }>>(INSERT, [
    slug,
    accountId,
    asset.id,
    body.title,
    body.description ?? null,
    body.reference ?? null,
    asset.chain,
    address,
    BENCH_NETWORK,
    index,
    body.amount,
    expiresAt,
    body.webhook_url ?? null,
    body.redirect_url ?? null,
    now,
    now,
  ]);
  res
    .status(201)
    .location(`${PAYMENT_REQUESTS_PATH}/${row!.id}`)
    .json({
      payment_request: {
        id: slug,
        type: 'invoice',
        title: body.title,
        description: body.description ?? null,
        status: 'pending',
        asset: asset.code,
        chain: asset.chain,
        address,
        amount_requested: body.amount,
        amount_paid: '0',
        amount_outstanding: body.amount,
        expires_at: expiresAt.toISOString(),
        paid_at: null,
        redirect_url: body.redirect_url ?? null,
        reference: body.reference ?? null,
        webhook_url: body.webhook_url ?? null,
        created_at: now.toISOString(),
      },
    });
});
const server = app.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => {
    void orm.close().then(() => process.exit(0));
  });
  server.closeIdleConnections();
});
