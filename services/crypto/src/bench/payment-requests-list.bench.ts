// Benchmark `payment-requests-list` (npm run bench -- payment-requests-list; issue 13 §1): GET
// /api/merchant/v1/payment-requests (the first page of 25, newest first) on the real crypto service (`crypto serve` in
// its own process, NODE_ENV=production) over an account with BENCH_LIST_REQUESTS requests (default 10,000; 100 in a
// smoke run), against a bare Express app running one SELECT of the same rows serialised to the same JSON
// (payment-requests-list-baseline.ts), both on the same database, side by side. Target: at least half the baseline's
// throughput.
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { benchLog, benchmarkResult, benchSettings, benchSize, httpLoadRunner, measureSideBySide, runBenchmark, startBenchServer, type Target } from '@tributary/kit/bench';
import { PER_PAGE_DEFAULT } from '../modules/payment-requests/index.js';
import { assetDefinition } from '../modules/assets/index.js';
import { BENCH_ASSET, BENCH_NETWORK, PAYMENT_REQUESTS_PATH, prepareAccount, startCrypto, type BenchAccount } from './merchant-api.js';

const NAME = 'payment-requests-list';
const TARGET: Target = { minThroughputRatio: 0.5 };
const REQUESTS = Number(process.env['BENCH_LIST_REQUESTS'] ?? benchSize(10_000, 100));

/**
 * The account's requests in one INSERT … SELECT: one a minute back from now, a mix of statuses (some pending past
 * their deadline, so the list reports them expired), references on most, amounts with trailing zeros to trim.
 */
async function seedRequests(orm: MikroORM, account: BenchAccount): Promise<void> {
  const started = performance.now();
  const connection = orm.em.getConnection();
  await connection.execute(
    `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "reference", "chain", "address", "network",
       "address_conflict", "address_index", "amount_requested", "amount_paid", "expires_at", "paid_at", "webhook_url", "created_at", "updated_at")
     select substr(md5('r' || i), 1, 24), ?, ?, 'invoice', (array['pending', 'paid', 'partial', 'pending', 'expired'])[1 + i % 5], 'Order ' || i,
       case when i % 4 = 0 then null else 'order-' || i end, ?, 'bench-address-' || i, ?, false, i, 0.015,
       case i % 5 when 1 then 0.015 when 2 then 0.005 else 0 end,
       t + case when i % 3 = 0 then interval '10 minutes' else interval '1 day' end,
       case when i % 5 = 1 then t + interval '5 minutes' end, 'https://shop.bench.example/hooks/crypto', t, t
     from generate_series(1, ?::int) as i, lateral (select now() - i * interval '1 minute' as t) as x`,
    [account.accountId, account.assetId, assetDefinition(BENCH_ASSET).chain, BENCH_NETWORK, REQUESTS],
  );
  await connection.execute('analyze "payment_requests"');
  benchLog(`seeded ${REQUESTS.toLocaleString('en')} payment requests in ${((performance.now() - started) / 1000).toFixed(1)}s`);
}

const baselineScript = fileURLToPath(new URL('./payment-requests-list-baseline.js', import.meta.url));

runBenchmark(async () => {
  if (!Number.isInteger(REQUESTS) || REQUESTS < PER_PAGE_DEFAULT) throw new Error(`BENCH_LIST_REQUESTS must be a whole number of at least ${PER_PAGE_DEFAULT}, not ${process.env['BENCH_LIST_REQUESTS']}`);
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const account = await prepareAccount('crypto_bench_list', seedRequests);
    cleanup.unshift(() => account.db.drop());
    const crypto = await startCrypto(account.db.url);
    cleanup.unshift(() => crypto.stop());
    const baseline = await startBenchServer({ name: 'payment-requests-list-baseline', script: baselineScript, readyPath: '/readyz', env: { DATABASE_URL: account.db.url, ACCOUNT_ID: String(account.accountId) } });
    cleanup.unshift(() => baseline.stop());
    benchLog(`crypto ${crypto.url} (log ${crypto.logFile}), baseline ${baseline.url}`);

    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner('crypto', { url: `${crypto.url}${PAYMENT_REQUESTS_PATH}`, headers: { authorization: `Bearer ${account.apiKey}` } }, [crypto]),
        baseline: httpLoadRunner('express+sql', { url: `${baseline.url}${PAYMENT_REQUESTS_PATH}` }, [baseline]),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: `GET /api/merchant/v1/payment-requests (API key; the first page of ${PER_PAGE_DEFAULT} of ${REQUESTS.toLocaleString('en')}) vs a bare Express 5 + one SELECT of the same rows serialised to the same JSON`,
      settings,
      measured,
      target: TARGET,
      notes: [
        `seed: ${REQUESTS.toLocaleString('en')} ${BENCH_ASSET} invoices of one account in one INSERT … SELECT generate_series, one a minute apart, mixed statuses (some pending past their deadline, reported expired).`,
        "ours: `crypto serve` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file), the per-key rate limit raised above the load; each request authenticates the key, validates the query, loads the page and its count through MikroORM (the asset populated) and presents each request.",
        "baseline: Express 5 with one SELECT on the same database through MikroORM's driver and pool (pg): the same rows, order and page size, the asset joined, the total by a count(*) subquery, every field formatted by PostgreSQL as the API shows it; no authentication, validation, hydration or presenter.",
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
