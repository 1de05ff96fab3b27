// Benchmark `soak` (npm run bench -- soak): the whole platform — `serve` and `worker` of bnpl, crypto and photos on
// their own seeded databases, and the gateway over the three — under mixed traffic at a fixed rate for 10 minutes
// (BENCH_SOAK_SECONDS, BENCH_SOAK_RATE). Issue 13 §1: the RSS of every process stays flat (growth under 10%) and no
// response is an error. It has no baseline of its own: its two sides are the soak's second tenth (after a tenth of
// warm-up) and its last tenth, so the table's ratio shows any drift in throughput or latency over the run.
import { z } from 'zod';
import { envInteger, loadConfig } from '@tributary/kit';
import {
  benchLog,
  benchmarkResult,
  benchSettings,
  benchSize,
  combineRuns,
  compare,
  memoryGrowth,
  processRssBytes,
  seededServiceDatabase,
  startBenchServer,
  startServiceServe,
  startServiceWorker,
  runBenchmark,
  type BenchServiceName,
  type RawRun,
} from '@tributary/kit/bench';
import { gatewayEntry } from '../services.js';
import { stackPaths } from '../paths.js';

const NAME = 'soak';
/** Largest RSS growth of any process from the soak's second tenth to its last (medians of the samples in each). */
const MAX_RSS_GROWTH = 0.1;
const WINDOWS = 10;
/** The tenth whose RSS and latency are the reference: the first is warm-up (JIT, pools, caches filling). */
const REFERENCE_WINDOW = 1;
const REQUEST_TIMEOUT_MS = 30_000;
const SERVICES: readonly BenchServiceName[] = ['bnpl', 'crypto', 'photos'];
/** Chain nodes crypto's worker would watch: none in the soak. */
const CHAIN_RPC_VARIABLES = ['CRYPTO_BTC_RPC_URL', 'CRYPTO_LTC_RPC_URL', 'CRYPTO_ETH_RPC_URL', 'CRYPTO_MATIC_RPC_URL'];

const soakEnv = z.object({
  /** How long the soak runs. */
  BENCH_SOAK_SECONDS: envInteger(10, 86_400).optional(),
  /** Requests per second, spread evenly over the mix. */
  BENCH_SOAK_RATE: envInteger(1, 10_000).optional(),
});

/** One kind of request in the mix. */
interface SoakRequest {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: (sequence: number) => unknown;
}

interface Processes {
  /** name → pid of every process under the soak. */
  pids: Map<string, number>;
  urls: Record<BenchServiceName | 'gateway', string>;
  credentials: Record<BenchServiceName, Record<string, unknown>>;
}

const DASHBOARD_QUERY = `query Dashboard {
  bnplMerchant { id name settlementCadence }
  cryptoAccount { id name status }
  photosTeam { id name }
  photosProjects { id name status lastActivityAt }
}`;

/** The mix: a create and a list on each service (each create also starts its workflows through the outbox), and the gateway's dashboard query over all three. */
function requestMix({ urls, credentials }: Processes): SoakRequest[] {
  const bnpl = credentials.bnpl;
  const bearer = (token: unknown) => `Bearer ${String(token)}`;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  return [
    {
      label: 'bnpl widget session create',
      url: `${urls.bnpl}/api/v1/widget/sessions`,
      method: 'POST',
      headers: { ...json, authorization: bearer(bnpl.secret_key), 'x-merchant-public-key': String(bnpl.public_key) },
      body: (n) => ({ amount_cents: 10_000, currency: 'USD', order_reference: `soak-${n}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' }),
    },
    { label: 'bnpl sales page', url: `${urls.bnpl}/api/v1/merchant/sales`, method: 'GET', headers: { accept: 'application/json', authorization: bearer(bnpl.dashboard_token) } },
    {
      label: 'crypto payment request create',
      url: `${urls.crypto}/api/merchant/v1/payment-requests`,
      method: 'POST',
      headers: { ...json, authorization: bearer(credentials.crypto.api_key) },
      body: (n) => ({ asset_id: 1, title: `Soak order ${n}`, amount: '0.015', reference: `soak-${n}` }),
    },
    { label: 'crypto payment request list', url: `${urls.crypto}/api/merchant/v1/payment-requests`, method: 'GET', headers: { accept: 'application/json', authorization: bearer(credentials.crypto.api_key) } },
    {
      label: 'photos project create',
      url: `${urls.photos}/api/v1/projects`,
      method: 'POST',
      headers: { ...json, authorization: bearer(credentials.photos.token) },
      body: (n) => ({ name: `Soak project ${n}`, address: `${n} Soak Street` }),
    },
    { label: 'photos project list', url: `${urls.photos}/api/v1/projects`, method: 'GET', headers: { accept: 'application/json', authorization: bearer(credentials.photos.token) } },
    {
      label: 'gateway dashboard query',
      url: `${urls.gateway}/graphql`,
      method: 'POST',
      headers: {
        ...json,
        'x-bnpl-authorization': bearer(bnpl.dashboard_token),
        'x-crypto-authorization': bearer(credentials.crypto.api_key),
        'x-photos-authorization': bearer(credentials.photos.token),
      },
      body: () => ({ query: DASHBOARD_QUERY, operationName: 'Dashboard' }),
    },
  ];
}

interface Outcome {
  window: number;
  latencyMs: number;
  /** HTTP status, or 0 for no response (connection error, timeout). */
  status: number;
  /** A 200 whose GraphQL body carries errors is an error too. */
  graphqlErrors: boolean;
}

async function send(request: SoakRequest, sequence: number): Promise<{ status: number; graphqlErrors: boolean }> {
  const body = request.body?.(sequence);
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const graphqlErrors = request.url.endsWith('/graphql') && (JSON.parse(text) as { errors?: unknown[] }).errors !== undefined;
    return { status: response.status, graphqlErrors };
  } catch {
    return { status: 0, graphqlErrors: false };
  }
}

/** Open loop: request i of the mix (round robin) leaves at start + i / rate, whether or not earlier ones have answered. */
async function fixedRateTraffic(mix: readonly SoakRequest[], rate: number, seconds: number, onWindow: (window: number) => void): Promise<Outcome[]> {
  const outcomes: Promise<Outcome>[] = [];
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  let window = -1;
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const current = Math.min(WINDOWS - 1, Math.floor((i * WINDOWS) / total));
    if (current !== window) onWindow((window = current));
    const t0 = performance.now();
    outcomes.push(send(mix[i % mix.length]!, i).then(({ status, graphqlErrors }) => ({ window: current, latencyMs: performance.now() - t0, status, graphqlErrors })));
  }
  return Promise.all(outcomes);
}

/** The outcomes of one tenth as a run (failures by status; no response = a connection error). */
function windowRun(outcomes: readonly Outcome[], window: number, seconds: number): RawRun {
  const mine = outcomes.filter((outcome) => outcome.window === window);
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let ok = 0;
  for (const { status, graphqlErrors } of mine) {
    if (status === 0) errors += 1;
    else if (status < 200 || status > 299 || graphqlErrors) {
      const key = graphqlErrors ? `${status} with GraphQL errors` : String(status);
      statusCodes[key] = (statusCodes[key] ?? 0) + 1;
    } else ok += 1;
  }
  return { ok, seconds: seconds / WINDOWS, latenciesMs: mine.map((outcome) => outcome.latencyMs), statusCodes, errors, timeouts: 0 };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};

interface RssVerdict {
  label: string;
  referenceBytes: number;
  finalBytes: number;
  growth: number;
}

/** Every process's RSS: median of its samples in the reference tenth vs in the last tenth. */
function rssVerdicts(samples: ReadonlyMap<string, Array<{ window: number; bytes: number }>>): RssVerdict[] {
  return [...samples].map(([label, points]) => {
    const referenceBytes = median(points.filter((p) => p.window === REFERENCE_WINDOW).map((p) => p.bytes));
    const finalBytes = median(points.filter((p) => p.window === WINDOWS - 1).map((p) => p.bytes));
    return { label, referenceBytes, finalBytes, growth: referenceBytes > 0 ? finalBytes / referenceBytes - 1 : 0 };
  });
}

async function startPlatform(cleanup: Array<() => Promise<void>>): Promise<Processes> {
  const pids = new Map<string, number>();
  const urls = {} as Processes['urls'];
  const credentials = {} as Processes['credentials'];
  // Production settings; the limits a single client would hit are raised (this is one client sending all the traffic).
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_BASE_URL: 'https://pay.soak.example',
    CRYPTO_MERCHANT_RATE_LIMIT: '1000000',
    PHOTOS_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  for (const service of SERVICES) {
    const { db, credentials: seeded } = await seededServiceDatabase(service);
    cleanup.unshift(() => db.drop());
    credentials[service] = seeded;
    const serve = await startServiceServe(service, db.url, env);
    cleanup.unshift(() => serve.stop());
    const worker = startServiceWorker(service, db.url, env, CHAIN_RPC_VARIABLES);
    cleanup.unshift(() => worker.stop());
    urls[service] = serve.url;
    pids.set(`${service} serve`, serve.pid);
    pids.set(`${service} worker`, worker.pid);
  }
  const gateway = await startBenchServer({
    name: 'gateway',
    script: gatewayEntry(stackPaths().root),
    readyPath: '/readyz',
    env: { ...env, BNPL_SUBGRAPH_URL: `${urls.bnpl}/graphql`, CRYPTO_SUBGRAPH_URL: `${urls.crypto}/graphql`, PHOTOS_SUBGRAPH_URL: `${urls.photos}/graphql` },
  });
  cleanup.unshift(() => gateway.stop());
  urls.gateway = gateway.url;
  pids.set('gateway', gateway.pid);
  return { pids, urls, credentials };
}

runBenchmark(async () => {
  const settings = benchSettings();
  const configured = loadConfig(soakEnv, process.env);
  const seconds = configured.BENCH_SOAK_SECONDS ?? benchSize(600, 20, settings);
  const rate = configured.BENCH_SOAK_RATE ?? benchSize(20, 5, settings);
  const sampleEveryMs = Math.max(1_000, Math.min(5_000, (seconds * 1000) / (WINDOWS * 4)));
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const platform = await startPlatform(cleanup);
    const mix = requestMix(platform);
    // Each kind once before the clock starts: a broken request fails the soak at once, not after ten minutes.
    for (const [i, request] of mix.entries()) {
      const { status, graphqlErrors } = await send(request, -1 - i);
      if (status < 200 || status > 299 || graphqlErrors) throw new Error(`${request.label}: the soak's request was answered ${status}${graphqlErrors ? ' with GraphQL errors' : ''}`);
    }
    benchLog(`${platform.pids.size} processes (${[...platform.pids.keys()].join(', ')}); ${rate} requests/s for ${seconds}s over ${mix.length} kinds`);

    const samples = new Map<string, Array<{ window: number; bytes: number }>>([...platform.pids.keys()].map((label) => [label, []]));
    let window = 0;
    const sample = () => {
      for (const [label, pid] of platform.pids) {
        const bytes = processRssBytes(pid);
        if (bytes !== undefined) samples.get(label)!.push({ window, bytes });
      }
    };
    const sampler = setInterval(sample, sampleEveryMs);
    const outcomes = await fixedRateTraffic(mix, rate, seconds, (current) => {
      window = current;
      benchLog(`tenth ${current + 1}/${WINDOWS}`);
    }).finally(() => clearInterval(sampler));

    const reference = combineRuns('second tenth', [windowRun(outcomes, REFERENCE_WINDOW, seconds)]);
    const final = combineRuns('last tenth', [windowRun(outcomes, WINDOWS - 1, seconds)]);
    const everything = combineRuns('whole soak', Array.from({ length: WINDOWS }, (_, w) => windowRun(outcomes, w, seconds)));
    const rss = rssVerdicts(samples);
    const worst = rss.reduce((a, b) => (b.growth > a.growth ? b : a));
    const result = benchmarkResult({
      name: NAME,
      description: `${seconds}s of mixed traffic at ${rate} requests/s over bnpl, crypto, photos and the gateway; the last tenth against the second`,
      settings,
      measured: { ours: final, baseline: reference, comparison: compare(final, reference) },
      target: {},
      memory: memoryGrowth(worst.label, worst.referenceBytes, worst.finalBytes, sampleEveryMs),
      notes: [
        `verdict: PASS when every process's RSS (median of its samples, every ${sampleEveryMs / 1000}s, in the last tenth) is under ${MAX_RSS_GROWTH * 100}% above its median in the second tenth (the first is warm-up), and no response of the whole soak was an error (non-2xx, no answer within ${REQUEST_TIMEOUT_MS / 1000}s, or GraphQL errors); ours = the last tenth, baseline = the second, so the ratio shows drift.`,
        `whole soak: ${everything.operations} ok of ${outcomes.length} requests, p50/p95/p99 ${everything.latencyMs.p50.toFixed(1)}/${everything.latencyMs.p95.toFixed(1)}/${everything.latencyMs.p99.toFixed(1)} ms.`,
        `RSS (MiB, second tenth → last tenth): ${rss.map((r) => `${r.label} ${(r.referenceBytes / 2 ** 20).toFixed(0)} → ${(r.finalBytes / 2 ** 20).toFixed(0)} (${r.growth >= 0 ? '+' : ''}${(r.growth * 100).toFixed(1)}%)`).join('; ')}.`,
        `mix (round robin): ${mix.map((request) => request.label).join(', ')}; production settings, info logs to files, the merchant and photos rate limits raised (one client sends everything).`,
      ],
    });
    // The RSS bound is relative, per process: the verdict is computed here, the errors are the result's invalid list.
    const misses = rss.filter((r) => r.growth >= MAX_RSS_GROWTH).map((r) => `${r.label}: RSS grew ${(r.growth * 100).toFixed(1)}% (limit ${MAX_RSS_GROWTH * 100}%)`);
    const failures = everything.failures.non2xx + everything.failures.errors;
    if (failures > 0) misses.push(`${failures} error responses over the soak`);
    return { ...result, invalid: failures > 0 ? [`whole soak: ${failures} error responses (${JSON.stringify(everything.failures.statusCodes)}, ${everything.failures.errors} without an answer)`] : result.invalid, verdict: { passed: misses.length === 0, misses } };
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
