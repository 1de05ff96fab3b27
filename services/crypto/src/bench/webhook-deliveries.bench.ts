// Benchmark `webhook-deliveries` (npm run bench -- webhook-deliveries): 10,000 crypto payment.paid webhooks through
// the kit's webhook engine — each queued as crypto's payment webhook sink queues it (a webhook_deliveries row and the
// start of its delivery workflow in the workflow outbox, in one transaction), dispatched after the commit to the run's
// Temporal server, sent, signed and recorded by the real `crypto worker` process — to a local HTTPS receiver in its
// own process, against the same signed POSTs sent to the same receiver by a plain loop at the same concurrency.
// Targets (issue 13 §1): at least 200 deliveries/s sustained, and at least 0.25× the plain loop's rate.
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import {
  WEBHOOK_HEADER_NAMES,
  createWorkflowOutbox,
  enqueueWebhookDelivery,
  envInteger,
  loadConfig,
  serviceEnv,
  signPayload,
  type EnqueueWebhookDeliveryInput,
  type WorkflowOutbox,
} from '@tributary/kit';
import {
  BENCH_LOG_DIR_ENV,
  benchLog,
  benchmarkResult,
  benchSettings,
  benchSize,
  measureSideBySide,
  runBenchmark,
  seededServiceDatabase,
  startServiceWorker,
  type BenchSettings,
  type BenchWorker,
  type LoadRunner,
  type RawRun,
  type Target,
} from '@tributary/kit/bench';
import { TEST_TLS_FILES, generateTestTls } from '@tributary/kit/testing';
import { ApiKey, signingSecretRef } from '../modules/accounts/index.js';
import { PaymentRequestService, draftFromBody, type PaymentRequest } from '../modules/payment-requests/index.js';
import { deliveryOwnerId, paymentRequestEndpointId, paymentWebhookBody } from '../modules/webhooks/index.js';
import { SERVICE_NAME } from '../service-name.js';
import { openDatabase } from '../service.js';
import { WEBHOOK_RECEIVER_TLS_DIR_ENV, type ReceiverMessage } from './webhook-receiver.js';

const NAME = 'webhook-deliveries';
const TARGET: Target = { minThroughput: 200, minThroughputRatio: 0.25 };
const UNIT = 'deliveries/s';
const EVENT = 'payment.paid';
/** What the worker may send to: the receiver on this machine (crypto README, "Receiving webhooks locally"). */
const PRIVATE_HOSTS = 'localhost,127.0.0.1';
/**
 * A batch waits for its deliveries as long as they keep arriving; once none has for this long, the missing ones count
 * as lost. Far longer than the worker's outbox sweep (every 5 s, entries older than 10 s): starts the after-commit dispatch left to the sweeper
 * are slow, not lost.
 */
const ARRIVAL_IDLE_TIMEOUT_MS = 120_000;
/** Chain nodes the worker would watch: none here (a watcher's scans are not what is measured). */
const CHAIN_RPC_VARIABLES = ['CRYPTO_BTC_RPC_URL', 'CRYPTO_LTC_RPC_URL', 'CRYPTO_ETH_RPC_URL', 'CRYPTO_MATIC_RPC_URL'];

const receiverScript = fileURLToPath(new URL('./webhook-receiver.js', import.meta.url));
const logDir = () => process.env[BENCH_LOG_DIR_ENV] ?? tmpdir();

const sizeEnv = z.object({
  /** Deliveries a side over all rounds (default 10,000; 20 in a smoke run). */
  BENCH_WEBHOOK_DELIVERIES: envInteger(1, 1_000_000).optional(),
});

/** Deliveries per measured round (all rounds together: 10,000 by default), and in the warmup. */
function batchSizes(settings: BenchSettings) {
  const total = loadConfig(sizeEnv, process.env).BENCH_WEBHOOK_DELIVERIES ?? benchSize(10_000, 20, settings);
  return { round: Math.ceil(total / settings.rounds), warmup: benchSize(200, 0, settings), total };
}

interface Receiver {
  url: string;
  /** Resolves with each path's arrival time (performance.now()) once all arrived, or with those that did before none arrived for `idleMs`. */
  arrivals(paths: readonly string[]): { settled(idleMs: number): Promise<Map<string, number>> };
  close(): Promise<void>;
}

async function startReceiver(tlsDir: string): Promise<Receiver> {
  const log = openSync(path.join(logDir(), 'receiver.log'), 'w');
  const child = fork(receiverScript, [], { env: { ...process.env, [WEBHOOK_RECEIVER_TLS_DIR_ENV]: tlsDir }, stdio: ['ignore', log, log, 'ipc'] });
  closeSync(log);
  let expected = new Map<string, number | undefined>();
  let onArrival: () => void = () => undefined;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the webhook receiver exited (${code}) before listening`)));
    child.on('message', (message: ReceiverMessage) => {
      if ('listening' in message) resolve(message.listening);
      else if (expected.has(message.received) && expected.get(message.received) === undefined) {
        expected.set(message.received, performance.now());
        onArrival();
      }
    });
  });
  return {
    url: `https://localhost:${port}`,
    arrivals(paths) {
      expected = new Map(paths.map((p) => [p, undefined]));
      let missing = paths.length;
      let lastArrival = performance.now();
      const all = new Promise<void>((resolve) => {
        onArrival = () => {
          missing -= 1;
          lastArrival = performance.now();
          if (missing === 0) resolve();
        };
        if (missing === 0) resolve();
      });
      return {
        async settled(idleMs) {
          let timer: NodeJS.Timeout | undefined;
          const idle = new Promise<void>((resolve) => {
            const check = () => (performance.now() - lastArrival >= idleMs ? resolve() : (timer = setTimeout(check, 1_000)));
            lastArrival = performance.now();
            check();
          });
          await Promise.race([all, idle]);
          clearTimeout(timer);
          return new Map([...expected].filter((entry): entry is [string, number] => entry[1] !== undefined));
        },
      };
    },
    close: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Merchant {
  accountId: number;
  signingSecret: string;
  request: PaymentRequest;
}

/** The seeded demo account and one of its invoices, created by crypto's own service: what every body describes. */
async function prepareMerchant(orm: MikroORM, credentials: Record<string, unknown>): Promise<Merchant> {
  const accountId = Number(credentials.account_id);
  const em = orm.em.fork();
  const key = await em.findOneOrFail(ApiKey, { account: accountId });
  const { paymentRequest } = await new PaymentRequestService(em).create(
    { accountId, apiKeyId: key.id },
    draftFromBody({ asset_id: 1, title: 'Order 42', amount: '0.015', reference: 'bench-webhooks' }),
  );
  return { accountId, signingSecret: String(credentials.signing_secret), request: paymentRequest };
}

/** A finished batch as a run: deliveries that arrived, over the time from the first queued to the last received. */
function batchRun(count: number, started: number, sentAt: ReadonlyMap<string, number>, arrived: ReadonlyMap<string, number>, failed: number): RawRun {
  const latenciesMs = [...arrived].map(([p, at]) => at - sentAt.get(p)!);
  const last = Math.max(started, ...arrived.values());
  const lost = count - arrived.size - failed;
  return { ok: arrived.size, seconds: (last - started) / 1000, latenciesMs, statusCodes: {}, errors: failed + lost, timeouts: lost };
}

/** Runs `count` operations with `connections` in flight; the number of those that threw. */
async function inFlight(count: number, connections: number, operation: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const index = next++;
        await operation(index).catch(() => (failed += 1));
      }
    }),
  );
  return failed;
}

/** A runner over batches: the first run is the warmup when there is one, every later one a round. */
function batchRunner(label: string, settings: BenchSettings, pids: number[], runBatch: (count: number, connections: number, batch: number) => Promise<RawRun>): LoadRunner {
  const sizes = batchSizes(settings);
  let batch = 0;
  return {
    label,
    unit: UNIT,
    pids,
    async check() {
      const run = await runBatch(1, 1, batch++);
      if (run.ok !== 1) throw new Error(`${label}: a single delivery did not arrive`);
    },
    run(connections) {
      const warmup = batch === 1 && settings.warmupSeconds > 0;
      return runBatch(warmup ? sizes.warmup : sizes.round, connections, batch++);
    },
  };
}

function engineRunner(settings: BenchSettings, deps: { orm: MikroORM; outbox: WorkflowOutbox; receiver: Receiver; merchant: Merchant; worker: BenchWorker }): LoadRunner {
  const { orm, outbox, receiver, merchant } = deps;
  const delivery = (hookPath: string): EnqueueWebhookDeliveryInput => ({
    service: SERVICE_NAME,
    eventId: `${merchant.request.slug}-${EVENT}${hookPath.replaceAll('/', '-')}`,
    eventName: EVENT,
    endpointUrl: `${receiver.url}${hookPath}`,
    endpointId: paymentRequestEndpointId(merchant.request.id),
    ownerId: deliveryOwnerId(merchant.accountId),
    body: JSON.stringify(paymentWebhookBody(merchant.request, EVENT, new Date())),
    signingSecretRef: signingSecretRef(merchant.accountId),
  });
  return batchRunner('webhook engine', settings, [deps.worker.pid], async (count, connections, batch) => {
    const paths = Array.from({ length: count }, (_, i) => `/hook/engine/${batch}/${i}`);
    const arrivals = receiver.arrivals(paths);
    const sentAt = new Map<string, number>();
    const started = performance.now();
    const failed = await inFlight(count, connections, async (index) => {
      sentAt.set(paths[index]!, performance.now());
      const { outboxEntry } = await orm.em.fork().transactional((tx) => enqueueWebhookDelivery(tx, delivery(paths[index]!)));
      await outbox.dispatchAfterCommit([outboxEntry])?.();
    });
    return batchRun(count, started, sentAt, await arrivals.settled(ARRIVAL_IDLE_TIMEOUT_MS), failed);
  });
}

/** The same POST (body, event and signature headers, content type) in a loop over keep-alive connections. */
function plainLoopRunner(settings: BenchSettings, deps: { receiver: Receiver; merchant: Merchant; ca: string }): LoadRunner {
  const { receiver, merchant } = deps;
  const agent = new Agent({ keepAlive: true, ca: deps.ca });
  const headers = WEBHOOK_HEADER_NAMES[SERVICE_NAME];
  const post = (hookPath: string) =>
    new Promise<void>((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(paymentWebhookBody(merchant.request, EVENT, new Date())), 'utf8');
      const req = request(`${receiver.url}${hookPath}`, {
        method: 'POST',
        agent,
        headers: {
          [headers.event]: EVENT,
          [headers.signature]: signPayload(merchant.signingSecret, body),
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  return batchRunner('plain loop', settings, [], async (count, connections, batch) => {
    const paths = Array.from({ length: count }, (_, i) => `/hook/plain/${batch}/${i}`);
    const arrivals = receiver.arrivals(paths);
    const sentAt = new Map<string, number>();
    const started = performance.now();
    const failed = await inFlight(count, connections, async (index) => {
      sentAt.set(paths[index]!, performance.now());
      await post(paths[index]!);
    });
    return batchRun(count, started, sentAt, await arrivals.settled(ARRIVAL_IDLE_TIMEOUT_MS), failed);
  });
}

runBenchmark(async () => {
  const settings = benchSettings();
  const temporal = loadConfig(serviceEnv.pick({ TEMPORAL_ADDRESS: true, TEMPORAL_NAMESPACE: true }), process.env);
  const cleanup: Array<() => Promise<void>> = [];
  try {
    mkdirSync(logDir(), { recursive: true });
    const tlsDir = path.join(logDir(), 'tls');
    const tls = await generateTestTls(tlsDir);
    const { db, credentials } = await seededServiceDatabase('crypto');
    cleanup.unshift(() => db.drop());
    const orm = await openDatabase(db.url);
    cleanup.unshift(() => orm.close());
    const merchant = await prepareMerchant(orm, credentials);
    const receiver = await startReceiver(tlsDir);
    cleanup.unshift(() => receiver.close());
    // `crypto worker` as production runs it, allowed to reach the receiver and trusting its certificate.
    const worker = startServiceWorker(
      'crypto',
      db.url,
      { NODE_ENV: 'production', LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS, NODE_EXTRA_CA_CERTS: path.join(tlsDir, TEST_TLS_FILES.ca) },
      CHAIN_RPC_VARIABLES,
    );
    cleanup.unshift(() => worker.stop());
    const connection = await Connection.connect({ address: temporal.TEMPORAL_ADDRESS });
    cleanup.unshift(() => connection.close());
    const outbox = createWorkflowOutbox({ em: orm.em, client: new Client({ connection, namespace: temporal.TEMPORAL_NAMESPACE }) });
    cleanup.unshift(() => outbox.idle());
    const sizes = batchSizes(settings);
    benchLog(`receiver ${receiver.url}, crypto worker pid ${worker.pid} (log ${worker.logFile}); ${sizes.total} deliveries a side in ${settings.rounds} rounds`);

    const measured = await measureSideBySide(
      { ours: engineRunner(settings, { orm, outbox, receiver, merchant, worker }), baseline: plainLoopRunner(settings, { receiver, merchant, ca: tls.ca }) },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: `${sizes.total} crypto ${EVENT} webhooks through the kit's webhook engine (outbox → Temporal → crypto worker) vs the same signed POSTs from a plain loop, to a local HTTPS receiver`,
      settings,
      measured,
      target: TARGET,
      notes: [
        `a round is a batch of ${sizes.round} deliveries a side (the warmup ${sizes.warmup}); throughput = deliveries received ÷ time from the first queued (or sent) to the last received; latency = queued (or sent) → received. --duration does not apply.`,
        `ours: ${settings.connections} producers in the benchmark process, each queuing one delivery per transaction as crypto's payment webhook sink does and dispatching its start after the commit; the real \`crypto worker\` (NODE_ENV=production, info logs to a file) runs the shared delivery workflow and its activity: signing with the account's current secret, a fresh TLS connection per attempt (every attempt checks its destination again), the attempt recorded.`,
        `baseline: ${settings.connections} concurrent POSTs of the same body and headers (HMAC computed per request) over keep-alive connections, from the benchmark process.`,
        'the receiver is its own process (answers 200 once the body is read); the Temporal dev server is in memory and shares the machine; cpu ms/op is the worker\'s alone (the baseline has no server process).',
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
