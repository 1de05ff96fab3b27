// Many loans of one merchant in two SQL statements (generate_series), for the sales benchmarks (sales-export,
// sales-page) and the export's streaming test: far faster than booking them one by one, and the same rows every time.
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrateUp } from '@tributary/kit';
import type { TestDatabase } from '@tributary/kit/testing';
import type pg from 'pg';
import { DashboardToken, generateDashboardToken, hashDashboardToken } from '../modules/merchant-auth/index.js';
import { Merchant, MerchantUser } from '../modules/merchants/index.js';
import { openDatabase } from '../service.js';

// One authorized widget session per loan (loans.session_id is unique and references it), then the loans: one a
// minute back from now, statuses and plans mixed, a tenth of the references formula-like and a tenth with quotes
// and commas (so the export neutralises and quotes), a third without a phone, half disbursed. No installments: the
// CSV is one row per loan.
const SEED_SESSIONS = `insert into "widget_sessions" ("id", "token", "merchant_id", "livemode", "status", "amount_cents", "currency",
    "order_reference", "customer_email", "customer_phone", "success_url", "cancel_url", "expires_at", "created_at", "updated_at")
  select md5('s' || i)::uuid, 'ws_bench' || lpad(i::text, 10, '0'), $1, false, 'authorized', 10000 + i % 90000, 'USD',
    'order-' || i, 'shopper' || i || '@example.com', '+1415555' || lpad((i % 10000)::text, 4, '0'),
    'https://shop.example/thanks', 'https://shop.example/cart', t, t, t
  from generate_series($3::int, $3::int + $2::int - 1) as i, lateral (select now() - i * interval '1 minute' as t) as x`;

const SEED_LOANS = `insert into "loans" ("id", "loan_number", "merchant_id", "session_id", "livemode", "status", "plan_id", "principal_cents",
    "fee_cents", "total_cents", "currency", "purchase_reference", "customer_email", "customer_phone", "disbursed_at", "created_at", "updated_at")
  select md5('l' || i)::uuid, 'LN-' || lpad((i / 100000)::text, 5, '0') || '-' || lpad((i % 100000)::text, 5, '0'), $1, md5('s' || i)::uuid, false,
    (array['approved', 'funded', 'active', 'paid_off', 'in_arrears'])[1 + i % 5], (array['pay_in_4', 'monthly_3', 'monthly_6', 'monthly_12'])[1 + i % 4],
    p, 0, p, 'USD',
    case i % 10 when 0 then '=HYPERLINK("https://x.example",' || i || ')' when 1 then 'order "' || i || '", gift' else 'order-' || i end,
    'shopper' || i || '@example.com', case when i % 3 = 0 then null else '+1415555' || lpad((i % 10000)::text, 4, '0') end,
    case when i % 2 = 0 then t + interval '1 day' end, t, t
  from generate_series($3::int, $3::int + $2::int - 1) as i, lateral (select now() - i * interval '1 minute' as t, 10000 + i % 90000 as p) as x`;

/**
 * Inserts `count` loans (and their sessions) of the merchant, numbered from `first`, loan n created n minutes back from
 * now; then ANALYZE. Ids and numbers are fixed by n: the ranges seeded on one database must not overlap.
 */
export async function seedLoans(client: pg.ClientBase, merchantId: string, count: number, first = 1): Promise<void> {
  await client.query(SEED_SESSIONS, [merchantId, count, first]);
  await client.query(SEED_LOANS, [merchantId, count, first]);
  await client.query('analyze "widget_sessions", "loans"');
}

export interface SalesMerchant {
  db: TestDatabase;
  merchantId: string;
  /** A dashboard token of the merchant's user (DT). */
  token: string;
}

/** A merchant with a dashboard token (made through the entities), on a fresh database with bnpl's migrations. */
export async function prepareSalesMerchant(db: TestDatabase): Promise<SalesMerchant> {
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(db.url);
    await migrateUp(orm);
    const em = orm.em.fork();
    const merchant = em.create(Merchant, { name: 'Bench Sales Shop' });
    const user = em.create(MerchantUser, { merchant, email: 'bench@example.test', name: 'Bench' });
    const token = generateDashboardToken();
    em.create(DashboardToken, { user, tokenHash: hashDashboardToken(token), revokedAt: null, expiresAt: null });
    await em.flush();
    return { db, merchantId: merchant.id, token };
  } finally {
    await orm?.close();
  }
}
