// Benchmark `widget-session-create` (npm run bench -- widget-session-create): POST /api/v1/widget/sessions on the
// real bnpl service (`bnpl serve` in its own process, as production runs it: NODE_ENV=production, info logs to a
// file, the expiry workflow's start queued in the outbox with the session, for the worker's sweeper) against a bare
// Express + pg INSERT of the same row (widget-session-baseline.ts), side by side at the same concurrency. No bnpl
// worker runs, so the starts wait in the outbox (in production the worker and Temporal run elsewhere; the
// `workflow-starts` benchmark measures the starts); after the rounds the run checks that every session has its start
// queued. Target (issue 8 §9): at least half the baseline's throughput, p99 at most 3× the baseline's.
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  benchLog,
  benchmarkResult,
  benchSettings,
  httpLoadRunner,
  measureSideBySide,
  runBenchmark,
  startBenchServer,
  type BenchServer,
  type Target,
} from '@tributary/kit/bench';
import { migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { WIDGET_SESSIONS_PATH } from '../api-paths.js';
import { ApiKeyService } from '../modules/api-keys/index.js';
import { Merchant } from '../modules/merchants/index.js';
import { openDatabase } from '../service.js';

const NAME = 'widget-session-create';
const TARGET: Target = { minThroughputRatio: 0.5, maxP99Ratio: 3 };
const PUBLIC_BASE_URL = 'https://pay.bench.example';

/** A valid create body; order_reference differs on every request, as a merchant's orders do. */
const sessionBody = (prefix: string) => (sequence: number) => ({
  amount_cents: 10_000,
  currency: 'USD',
  order_reference: `${prefix}-${sequence}`,
  success_url: 'https://shop.example/checkout/success',
  cancel_url: 'https://shop.example/checkout/cancel',
});

interface Prepared {
  db: TestDatabase;
  merchantId: string;
  publicKey: string;
  secretKey: string;
}

/** A fresh database with bnpl's migrations, one merchant and one test API key (made by the service's own code). */
async function prepareDatabase(prefix: string): Promise<Prepared> {
  const db = await createTestDatabase(prefix);
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(db.url);
    await migrateUp(orm);
    const em = orm.em.fork();
    const merchant = em.create(Merchant, { name: 'Bench Shop' });
    await em.flush();
    const principal = { kind: 'dashboard', merchantId: merchant.id, merchantUserId: merchant.id, tokenId: merchant.id } as const;
    const created = await new ApiKeyService(em).create(principal, { name: 'bench', environment: 'test' });
    return { db, merchantId: merchant.id, publicKey: created.key.publicKey, secretKey: created.secretKey };
  } catch (error) {
    await db.drop();
    throw error;
  } finally {
    await orm?.close();
  }
}

const cliScript = fileURLToPath(new URL('../cli.js', import.meta.url));
const baselineScript = fileURLToPath(new URL('./widget-session-baseline.js', import.meta.url));

/** Sessions the rounds created, and the expiry starts queued for them (nothing lost: one each, none dispatched here). */
async function queuedExpiryStarts(databaseUrl: string): Promise<{ sessions: number; queuedStarts: number }> {
  const orm = await openDatabase(databaseUrl);
  try {
    const [row] = await orm.em.getConnection().execute<Array<{ sessions: string; queued: string }>>(
      `select (select count(*) from "widget_sessions") as "sessions",
              (select count(*) from "workflow_outbox" where "kind" = 'start' and "dispatched_at" is null) as "queued"`,
    );
    return { sessions: Number(row!.sessions), queuedStarts: Number(row!.queued) };
  } finally {
    await orm.close();
  }
}

function startBnpl(databaseUrl: string): Promise<BenchServer> {
  return startBenchServer({
    name: 'bnpl',
    script: cliScript,
    args: ['serve'],
    readyPath: '/readyz',
    // Production requires SMTP_URL (login codes); nothing listens there and nothing here sends mail.
    env: { DATABASE_URL: databaseUrl, PUBLIC_BASE_URL, NODE_ENV: 'production', LOG_LEVEL: 'info', SMTP_URL: 'smtp://127.0.0.1:9' },
  });
}

function startBaseline(prepared: Prepared): Promise<BenchServer> {
  return startBenchServer({
    name: 'baseline-express-pg',
    script: baselineScript,
    env: { DATABASE_URL: prepared.db.url, MERCHANT_ID: prepared.merchantId, PUBLIC_BASE_URL },
  });
}

runBenchmark(async () => {
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const ours = await prepareDatabase('bnpl_bench');
    cleanup.unshift(() => ours.db.drop());
    const floor = await prepareDatabase('bnpl_bench_baseline');
    cleanup.unshift(() => floor.db.drop());
    const bnpl = await startBnpl(ours.db.url);
    cleanup.unshift(() => bnpl.stop());
    const baseline = await startBaseline(floor);
    cleanup.unshift(() => baseline.stop());
    benchLog(`bnpl ${bnpl.url} (log ${bnpl.logFile}), baseline ${baseline.url}`);

    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner(
          'bnpl',
          {
            url: `${bnpl.url}${WIDGET_SESSIONS_PATH}`,
            headers: { authorization: `Bearer ${ours.secretKey}`, 'x-merchant-public-key': ours.publicKey },
            bodyFor: sessionBody('bench-ours'),
          },
          [bnpl],
        ),
        baseline: httpLoadRunner('express+pg', { url: `${baseline.url}${WIDGET_SESSIONS_PATH}`, bodyFor: sessionBody('bench-baseline') }, [baseline]),
      },
      settings,
      benchLog,
    );
    const queued = await queuedExpiryStarts(ours.db.url);
    benchLog(`bnpl: ${queued.sessions} sessions, ${queued.queuedStarts} expiry starts queued for the worker`);
    if (queued.sessions === 0 || queued.queuedStarts !== queued.sessions) throw new Error(`every session should have its expiry start queued: ${JSON.stringify(queued)}`);
    return benchmarkResult({
      name: NAME,
      description: 'POST /api/v1/widget/sessions (KEYS, test key) vs a bare Express 5 + pg INSERT of the same widget_sessions row',
      settings,
      measured,
      target: TARGET,
      notes: [
        'ours: `bnpl serve` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file); each create writes the session and its expiry workflow start (outbox) in one statement; the start is the worker\'s sweeper\'s to dispatch, and no bnpl worker runs here (checked after the rounds: one queued start per session).',
        'baseline: Express 5 + pg.Pool (10 connections, as MikroORM\'s pool) inserting into the same widget_sessions table (bnpl\'s migrations, own database); no auth, validation, ORM, outbox or logging.',
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
