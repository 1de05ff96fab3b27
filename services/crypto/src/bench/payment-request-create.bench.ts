// Benchmark `payment-request-create` (npm run bench -- payment-request-create; issue 13 §1): POST
// /api/merchant/v1/payment-requests on the real crypto service (`crypto serve` in its own process, as production runs
// it: NODE_ENV=production, info logs to a file, the invoice's expiry workflow start dispatched from the outbox to the
// run's real Temporal server after commit) against a bare Express + INSERT of a comparable row
// (payment-request-create-baseline.ts), side by side at the same concurrency. Target: at least half the baseline's
// throughput, p99 at most 3× the baseline's.
import { benchLog, benchmarkResult, benchSettings, httpLoadRunner, measureSideBySide, runBenchmark, startBenchServer, type Target } from '@tributary/kit/bench';
import { fileURLToPath } from 'node:url';
import { BENCH_ASSET, BENCH_NETWORK, PAYMENT_REQUESTS_PATH, prepareAccount, startCrypto } from './merchant-api.js';

const NAME = 'payment-request-create';
const TARGET: Target = { minThroughputRatio: 0.5, maxP99Ratio: 3 };

/** A valid invoice: an amount, the default deadline, a merchant reference that differs on every request. */
const requestBody = (assetId: number, prefix: string) => (sequence: number) => ({
  asset_id: assetId,
  title: 'Bench order',
  amount: '0.015',
  reference: `${prefix}-${sequence}`,
});

const baselineScript = fileURLToPath(new URL('./payment-request-create-baseline.js', import.meta.url));

runBenchmark(async () => {
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const ours = await prepareAccount('crypto_bench_create');
    cleanup.unshift(() => ours.db.drop());
    const floor = await prepareAccount('crypto_bench_create_baseline');
    cleanup.unshift(() => floor.db.drop());
    const crypto = await startCrypto(ours.db.url);
    cleanup.unshift(() => crypto.stop());
    const baseline = await startBenchServer({ name: 'payment-request-create-baseline', script: baselineScript, readyPath: '/readyz', env: { DATABASE_URL: floor.db.url, ACCOUNT_ID: String(floor.accountId) } });
    cleanup.unshift(() => baseline.stop());
    benchLog(`crypto ${crypto.url} (log ${crypto.logFile}), baseline ${baseline.url}`);

    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner('crypto', { url: `${crypto.url}${PAYMENT_REQUESTS_PATH}`, headers: { authorization: `Bearer ${ours.apiKey}` }, bodyFor: requestBody(ours.assetId, 'bench-ours') }, [crypto]),
        baseline: httpLoadRunner('express+sql', { url: `${baseline.url}${PAYMENT_REQUESTS_PATH}`, bodyFor: requestBody(floor.assetId, 'bench-baseline') }, [baseline]),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: `POST /api/merchant/v1/payment-requests (API key; ${BENCH_ASSET} invoices on ${BENCH_NETWORK}) vs a bare Express 5 + INSERT of the same payment_requests row`,
      settings,
      measured,
      target: TARGET,
      notes: [
        `ours: \`crypto serve\` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file); each create authenticates the key (with the per-key rate limit raised above the load), validates the body, reads the asset, takes the next receive index of the account's ${BENCH_ASSET} key (UPDATE … RETURNING), derives its address, checks it is unused, inserts the request and enqueues the invoice's expiry workflow start in one transaction, then dispatches that start to the run's Temporal dev server after commit; no crypto worker runs.`,
        `baseline: Express 5 deriving the next address from the same key (index counted in memory) and one INSERT … RETURNING id into the same payment_requests table (crypto's migrations, own database) through MikroORM's driver and pool (pg), the same JSON answer; no authentication, validation, asset lookup, idempotency, key cursor, transaction, outbox or logging.`,
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
