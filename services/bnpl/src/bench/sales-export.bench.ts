// Benchmark `sales-export` (npm run bench -- sales-export): GET /api/v1/merchant/sales/export.csv of 1,000,000 loans
// on the real bnpl service (`bnpl serve` in its own process, NODE_ENV=production) beside `psql \copy` of the same
// rows (the same SELECT, same order) to CSV, one whole export per run, ABBA rounds. Targets (issue 10 §3): the
// export takes at most 2× psql's time (throughput ratio ≥ 0.5: one operation = one whole export), and the server's
// peak RSS while exporting stays under 100 MiB above its idle RSS (the export is streamed in keyset batches).
// BENCH_SALES_LOANS sets the number of loans (default 1,000,000; 1,000 in a smoke run).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  BenchRequestRefused,
  benchLog,
  benchmarkResult,
  benchSettings,
  benchSize,
  measureSideBySide,
  memoryGrowth,
  processRssBytes,
  runBenchmark,
  startBenchServer,
  watchPeakRss,
  type BenchServer,
  type LoadRunner,
  type RawRun,
  type Target,
} from '@tributary/kit/bench';
import { createTestDatabase } from '@tributary/kit/testing';
import pg from 'pg';
import { MERCHANT_PREFIX } from '../api-paths.js';
import { salesExportSql } from '../modules/sales/index.js';
import { prepareSalesMerchant, seedLoans, type SalesMerchant } from './sales-seed.js';

const NAME = 'sales-export';
const TARGET: Target = { minThroughputRatio: 0.5, maxRssGrowthMiB: 100 };
const LOANS = Number(process.env['BENCH_SALES_LOANS'] ?? benchSize(1_000_000, 1_000));
const RSS_SAMPLE_MS = 50;
const EXPORT_PATH = `${MERCHANT_PREFIX}/sales/export.csv`;

async function seedSales(prepared: SalesMerchant): Promise<void> {
  const client = new pg.Client({ connectionString: prepared.db.url });
  await client.connect();
  try {
    const t0 = performance.now();
    await seedLoans(client, prepared.merchantId, LOANS);
    benchLog(`seeded ${LOANS.toLocaleString('en')} loans in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
  } finally {
    await client.end();
  }
}

/** Counts bytes and line feeds of a streamed download (every record ends in one; the seeded fields hold none). */
class CsvTally {
  bytes = 0;
  lines = 0;
  add(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.lines += 1;
  }
}

const oneRun = (ms: number): RawRun => ({ ok: 1, seconds: ms / 1000, latenciesMs: [ms], statusCodes: {}, errors: 0, timeouts: 0 });

function checkRows(label: string, tally: CsvTally): void {
  if (tally.lines !== LOANS + 1) throw new Error(`${label}: ${tally.lines} CSV lines, expected ${LOANS + 1} (header + one per loan)`);
}

/** ours: one whole GET export.csv per run, the body read and discarded as it arrives. */
function httpExportRunner(bnpl: BenchServer, token: string): LoadRunner {
  const url = `${bnpl.url}${EXPORT_PATH}`;
  return {
    label: 'bnpl export.csv',
    unit: 'exports/s',
    pids: [bnpl.pid],
    run: async () => {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200 || !res.body) throw new BenchRequestRefused('bnpl export.csv', res.status, await res.text());
      const tally = new CsvTally();
      for await (const chunk of res.body) tally.add(chunk);
      const ms = performance.now() - t0;
      checkRows('bnpl export.csv', tally);
      return oneRun(ms);
    },
  };
}

/** The export's own SELECT with its parameters inlined (all text; quotes doubled), for psql. */
function inlineSql(sql: string, params: readonly unknown[]): string {
  let next = 0;
  return sql.replace(/\?/g, () => `'${String(params[next++]).replace(/'/g, "''")}'`);
}

/** baseline: `psql -c "\copy (<the same select>) to stdout with (format csv, header)"`, stdout read and discarded. */
function psqlCopyRunner(prepared: SalesMerchant): LoadRunner {
  const { sql, params } = salesExportSql(prepared.merchantId, { statuses: [] });
  const copy = `\\copy (${inlineSql(sql.replace(/\s+/g, ' '), params)}) to stdout with (format csv, header)`;
  return {
    label: 'psql \\copy',
    unit: 'exports/s',
    run: () =>
      new Promise<RawRun>((resolve, reject) => {
        const t0 = performance.now();
        const child = spawn('psql', ['--no-psqlrc', '--quiet', '--set', 'ON_ERROR_STOP=1', '--dbname', prepared.db.url, '--command', copy], { stdio: ['ignore', 'pipe', 'pipe'] });
        const tally = new CsvTally();
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => tally.add(chunk));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => {
          const ms = performance.now() - t0;
          if (code !== 0) return reject(new Error(`psql exited ${code}: ${stderr.slice(0, 500)}`));
          try {
            checkRows('psql \\copy', tally);
            resolve(oneRun(ms));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      }),
  };
}

const cliScript = fileURLToPath(new URL('../cli.js', import.meta.url));

function startBnpl(databaseUrl: string): Promise<BenchServer> {
  return startBenchServer({
    name: 'bnpl',
    script: cliScript,
    args: ['serve'],
    readyPath: '/readyz',
    // Production requires SMTP_URL (login codes); nothing listens there and nothing here sends mail.
    env: { DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: 'https://pay.bench.example', NODE_ENV: 'production', LOG_LEVEL: 'info', SMTP_URL: 'smtp://127.0.0.1:9' },
  });
}

runBenchmark(async () => {
  if (!Number.isInteger(LOANS) || LOANS < 1) throw new Error(`BENCH_SALES_LOANS must be a positive integer, not ${process.env['BENCH_SALES_LOANS']}`);
  // One export at a time, each a whole export: connections and duration do not apply, warmup > 0 = one export each.
  const settings = { ...benchSettings(), connections: 1 };
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const db = await createTestDatabase('bnpl_bench_sales');
    cleanup.unshift(() => db.drop());
    const prepared = await prepareSalesMerchant(db);
    await seedSales(prepared);
    const bnpl = await startBnpl(db.url);
    cleanup.unshift(() => bnpl.stop());
    benchLog(`bnpl ${bnpl.url} (log ${bnpl.logFile})`);

    const idle = processRssBytes(bnpl.pid);
    if (idle === undefined) throw new Error('cannot read the server\'s RSS from /proc (Linux only)');
    const watch = watchPeakRss(bnpl.pid, RSS_SAMPLE_MS);
    const measured = await measureSideBySide({ ours: httpExportRunner(bnpl, prepared.token), baseline: psqlCopyRunner(prepared) }, settings, benchLog);
    const memory = memoryGrowth('bnpl', idle, watch.stop() ?? idle, RSS_SAMPLE_MS);
    benchLog(`bnpl RSS: idle ${memory.idleMiB} MiB, peak ${memory.peakMiB} MiB (+${memory.growthMiB} MiB)`);
    return benchmarkResult({
      name: NAME,
      description: `GET /api/v1/merchant/sales/export.csv of ${LOANS.toLocaleString('en')} loans (DT) vs psql \\copy of the same SELECT to CSV; one whole export per run`,
      settings,
      measured,
      target: TARGET,
      memory,
      notes: [
        'One operation = one whole export; the latency columns are the export times (ms), throughput is exports per second, so the throughput ratio is psql\'s time over ours.',
        'ours: `bnpl serve` with NODE_ENV=production; rows read in keyset batches of 1,000 (one short statement each, no connection held between them) through the export\'s CSV encoder (formula neutralising, RFC 4180 quoting) to the response; the benchmark reads the body over HTTP and discards it.',
        'baseline: psql --command "\\copy (<the export\'s SELECT>) to stdout with (format csv, header)", stdout read and discarded; psql\'s start and connection are inside its time.',
        `RSS: the server's VmRSS before any export (idle, after start) and its peak over every export (warmup included), sampled every ${RSS_SAMPLE_MS} ms.`,
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
