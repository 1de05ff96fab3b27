// Benchmark `sales-page` (npm run bench -- sales-page; issue 13 §1): GET /api/v1/merchant/sales (the first page of 25,
// newest first) on the real bnpl service (`bnpl serve` in its own process, NODE_ENV=production) for a merchant with
// BENCH_SALES_PAGE_LOANS loans (default 10,000; 100 in a smoke run), against a bare Express + pg app running one
// SELECT of the same rows serialised to the same JSON (sales-page-baseline.ts), both on the same database, side by
// side. Target: at least half the baseline's throughput.
import { fileURLToPath } from 'node:url';
import { benchLog, benchmarkResult, benchSettings, benchSize, httpLoadRunner, measureSideBySide, runBenchmark, startBenchServer, type BenchServer, type Target } from '@tributary/kit/bench';
import { createTestDatabase } from '@tributary/kit/testing';
import pg from 'pg';
import { MERCHANT_PREFIX } from '../api-paths.js';
import { SALES_PAGE_DEFAULT } from '../modules/sales/index.js';
import { prepareSalesMerchant, seedLoans, type SalesMerchant } from './sales-seed.js';

const NAME = 'sales-page';
const TARGET: Target = { minThroughputRatio: 0.5 };
const LOANS = Number(process.env['BENCH_SALES_PAGE_LOANS'] ?? benchSize(10_000, 100));
const SALES_PATH = `${MERCHANT_PREFIX}/sales`;

async function seedSales(merchant: SalesMerchant): Promise<void> {
  const client = new pg.Client({ connectionString: merchant.db.url });
  await client.connect();
  try {
    const started = performance.now();
    await seedLoans(client, merchant.merchantId, LOANS);
    benchLog(`seeded ${LOANS.toLocaleString('en')} loans in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await client.end();
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function startBnpl(databaseUrl: string): Promise<BenchServer> {
  return startBenchServer({
    name: 'bnpl',
    script: here('../cli.js'),
    args: ['serve'],
    readyPath: '/readyz',
    // Production requires SMTP_URL (login codes); nothing listens there and nothing here sends mail.
    env: { DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: 'https://pay.bench.example', NODE_ENV: 'production', LOG_LEVEL: 'info', SMTP_URL: 'smtp://127.0.0.1:9' },
  });
}

runBenchmark(async () => {
  if (!Number.isInteger(LOANS) || LOANS <= SALES_PAGE_DEFAULT) throw new Error(`BENCH_SALES_PAGE_LOANS must be a whole number above ${SALES_PAGE_DEFAULT}, not ${process.env['BENCH_SALES_PAGE_LOANS']}`);
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const db = await createTestDatabase('bnpl_bench_sales_page');
    cleanup.unshift(() => db.drop());
    const merchant = await prepareSalesMerchant(db);
    await seedSales(merchant);
    const bnpl = await startBnpl(db.url);
    cleanup.unshift(() => bnpl.stop());
    const baseline = await startBenchServer({ name: 'sales-page-baseline', script: here('./sales-page-baseline.js'), env: { DATABASE_URL: db.url, MERCHANT_ID: merchant.merchantId } });
    cleanup.unshift(() => baseline.stop());
    benchLog(`bnpl ${bnpl.url} (log ${bnpl.logFile}), baseline ${baseline.url}`);

    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner('bnpl', { url: `${bnpl.url}${SALES_PATH}`, headers: { authorization: `Bearer ${merchant.token}` } }, [bnpl]),
        baseline: httpLoadRunner('express+pg', { url: `${baseline.url}${SALES_PATH}` }, [baseline]),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: `GET /api/v1/merchant/sales (DT; the first page of ${SALES_PAGE_DEFAULT} of ${LOANS.toLocaleString('en')} loans) vs a bare Express 5 + pg SELECT of the same rows serialised to the same JSON`,
      settings,
      measured,
      target: TARGET,
      notes: [
        `seed: ${LOANS.toLocaleString('en')} loans of one merchant (sales-seed.ts, as sales-export), one a minute apart, mixed statuses and plans.`,
        "ours: `bnpl serve` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file); each request authenticates the dashboard token, validates the query, reads the page's rows with their keyset positions in one statement (SalesService.listViews: plain rows, no entity hydrated) and presents each sale.",
        "baseline: Express 5 + pg.Pool (10 connections, as MikroORM's pool) with one SELECT on the same database: the same rows, order and page size (+1 for the next cursor), timestamps formatted by PostgreSQL, the cursor encoded as bnpl's; no authentication, validation, hydration or presenter.",
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
