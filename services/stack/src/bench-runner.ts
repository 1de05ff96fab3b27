// `npm run bench [-- NAME…] [--strict] [--cpu-prof] [--smoke] [--duration=S] [--warmup=S] [--rounds=N] [--connections=N]`:
// the isolated PostgreSQL and Temporal of `npm test`, then every selected benchmark as its own child process (Node 24,
// the built dist), one table, and bench/results/<date-time>.json. See the README's Benchmarks section.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { BENCH_CPU_PROF_DIR_ENV, BENCH_LOG_DIR_ENV, BENCH_RESULT_FILE_ENV, BENCH_SETTINGS_ENV, benchSettings, parseBenchmarkResult, summarizeCpuProfile, type BenchSettings, type CpuProfile } from '@tributary/kit/bench';
import { benchExitCode, benchFindings, benchTable, machineInfo, resultsFileName, statusOf, summaryOf, type BenchOutcome, type BenchProfile, type BenchRunReport } from './bench-report.js';
import { discoverBenchmarks, needsChainNodes, selectBenchmarks, type BenchmarkEntry } from './bench-discovery.js';
import { provisionChainNodes } from './chain-nodes.js';
import { describeError, StackError } from './errors.js';
import { cleanStaleRuns, provisionIsolatedInfra, type IsolatedInfra } from './isolated-infra.js';
import { onShutdown } from './lifecycle.js';
import { stackPaths, type StackPaths } from './paths.js';
import { bold, createProgress, dim, type Progress } from './progress.js';
import { randomEncryptionKey } from './secrets.js';
import { Supervisor } from './supervisor.js';
import { startTemporalDevServerOnFreePort } from './temporal.js';

export interface BenchOptions {
  /** Benchmark names or workspace folder names; empty = all. */
  names: string[];
  /** A missed target fails the command too. */
  strict: boolean;
  /** CPU profiles of the servers under load, summarised after each benchmark. */
  cpuProf: boolean;
  /** BENCH_* overrides from the command line. */
  settings: Partial<Record<keyof BenchSettings, string>>;
  verbose: boolean;
}

/** Benchmarks a smoke run (`--smoke`) runs at the same time; a real run runs one at a time, alone on the machine. */
export const SMOKE_CONCURRENCY = 3;

/** `run` over `items`, at most `concurrency` at a time, results in the items' order; undefined results are left out. */
async function atMostAtOnce<T, R>(items: readonly T[], concurrency: number, run: (item: T) => Promise<R> | undefined): Promise<R[]> {
  const results: Array<R | undefined> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results.filter((result): result is R => result !== undefined);
}

export const BENCH_USAGE = 'bench [NAME…] [--strict] [--cpu-prof] [--smoke] [--duration=S] [--warmup=S] [--rounds=N] [--connections=N]';

const SETTING_FLAGS: Record<string, keyof BenchSettings> = {
  '--duration': 'durationSeconds',
  '--warmup': 'warmupSeconds',
  '--rounds': 'rounds',
  '--connections': 'connections',
};

export function parseBenchArgs(args: readonly string[], verbose = false): BenchOptions {
  const opts: BenchOptions = { names: [], strict: false, cpuProf: false, settings: {}, verbose };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (arg === '--strict') opts.strict = true;
    else if (arg === '--cpu-prof') opts.cpuProf = true;
    else if (arg === '--smoke') opts.settings.smoke = '1';
    else if (flag in SETTING_FLAGS) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      if (value === undefined) throw new StackError(`${flag} needs a value`, `usage: ${BENCH_USAGE}`);
      opts.settings[SETTING_FLAGS[flag]!] = value;
    } else if (arg.startsWith('-')) throw new StackError(`unknown option for bench: ${arg}`, `usage: ${BENCH_USAGE}`);
    else opts.names.push(arg);
  }
  return opts;
}

/** The run's settings as BENCH_* variables (command line over environment), validated before anything starts. */
function settingsEnv(opts: BenchOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, variable] of Object.entries(BENCH_SETTINGS_ENV) as Array<[keyof BenchSettings, string]>) {
    const value = opts.settings[key] ?? process.env[variable];
    if (value !== undefined) env[variable] = value;
  }
  try {
    const settings = benchSettings(env);
    for (const [key, variable] of Object.entries(BENCH_SETTINGS_ENV) as Array<[keyof BenchSettings, string]>) env[variable] = String(settings[key]);
  } catch (error) {
    throw new StackError(describeError(error), `usage: ${BENCH_USAGE}`);
  }
  return env;
}

function gitCommit(root: string): string | undefined {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) return undefined;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? '+dirty' : ''}`;
}

async function postgresVersion(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Summaries of the .cpuprofile files a benchmark's servers wrote into `dir`. */
function readProfiles(root: string, dir: string): BenchProfile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => {
      const full = path.join(dir, file);
      return { file: path.relative(root, full), summary: summarizeCpuProfile(JSON.parse(readFileSync(full, 'utf8')) as CpuProfile) };
    });
}

function printProfiles(profiles: readonly BenchProfile[]): void {
  for (const { file, summary } of profiles) {
    console.log(`\n  ${bold('CPU profile')} ${file} — busy ${(summary.busyMs / 1000).toFixed(1)}s of ${(summary.totalMs / 1000).toFixed(1)}s`);
    console.log(`  by package:  ${summary.packages.slice(0, 8).map((p) => `${p.name} ${p.percent.toFixed(1)}%`).join(', ')}`);
    for (const fn of summary.functions.slice(0, 10)) console.log(`    ${fn.percent.toFixed(1).padStart(5)}%  ${fn.name}`);
  }
}

interface RunContext {
  paths: StackPaths;
  runDir: string;
  resultsDir: string;
  stamp: string;
  supervisor: Supervisor;
  progress: Progress;
  infra: IsolatedInfra;
  env: NodeJS.ProcessEnv;
  cpuProf: boolean;
  /**
   * Each benchmark on a Temporal dev server of its own (smoke runs, several at once): the services' workers poll fixed
   * task queues (`crypto`, …), so two benchmarks on one server would take each other's tasks against another database.
   */
  temporalPerBenchmark: boolean;
}

/** One benchmark as a child process: its stdout is our terminal, its result a JSON file it writes. */
async function runOne(entry: BenchmarkEntry, ctx: RunContext): Promise<BenchOutcome> {
  const temporal = ctx.temporalPerBenchmark
    ? await startTemporalDevServerOnFreePort({ cli: ctx.infra.temporalCli.path, supervisor: ctx.supervisor, name: `bench-${entry.name}-temporal` })
    : undefined;
  try {
    return await runBenchmarkProcess(entry, ctx, temporal?.address ?? ctx.infra.temporalAddress);
  } finally {
    await temporal?.process.stop();
  }
}

async function runBenchmarkProcess(entry: BenchmarkEntry, ctx: RunContext, temporalAddress: string): Promise<BenchOutcome> {
  const t0 = Date.now();
  const resultFile = path.join(ctx.runDir, `${entry.name}.result.json`);
  const profileDir = path.join(ctx.resultsDir, `${ctx.stamp.replace(/\.json$/, '')}-profiles`, entry.name);
  ctx.progress.info(`${bold(entry.name)} ${dim(`(${entry.workspace})`)}`);
  const child = ctx.supervisor.spawn({
    name: `bench-${entry.name}`,
    command: process.execPath,
    args: ['--enable-source-maps', entry.file],
    cwd: ctx.paths.root,
    tier: 'service',
    inheritStdio: true,
    oneShot: true,
    graceMs: 15_000,
    env: {
      ...process.env,
      ...ctx.env,
      TEST_DATABASE_URL: ctx.infra.databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      SECRETS_ENCRYPTION_KEY: randomEncryptionKey(),
      [BENCH_RESULT_FILE_ENV]: resultFile,
      [BENCH_LOG_DIR_ENV]: path.join(ctx.paths.stack, 'bench', 'logs', entry.name),
      ...(ctx.cpuProf ? { [BENCH_CPU_PROF_DIR_ENV]: profileDir } : {}),
    },
  });
  const exit = await child.exited;
  const seconds = (Date.now() - t0) / 1000;
  const base = { name: entry.name, workspace: entry.workspace, seconds };
  if (exit.code !== 0 || !existsSync(resultFile)) {
    const why = exit.signal ? `signal ${exit.signal}` : exit.code !== 0 ? `exit code ${exit.code}` : 'it wrote no result';
    return { ...base, status: 'failed', error: `the benchmark process ended without a result (${why}); its output is above` };
  }
  try {
    const result = parseBenchmarkResult(JSON.parse(readFileSync(resultFile, 'utf8')));
    const profiles = ctx.cpuProf ? readProfiles(ctx.paths.root, profileDir) : [];
    printProfiles(profiles);
    return { ...base, status: statusOf(result), result, ...(profiles.length ? { profiles } : {}) };
  } catch (error) {
    return { ...base, status: 'failed', error: describeError(error) };
  }
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const paths = stackPaths();
  const progress = createProgress('bench');
  const selected = selectBenchmarks(discoverBenchmarks(paths.root), opts.names);
  if (selected.length === 0) {
    console.log('[bench] no benchmarks are defined (a workspace adds src/bench/<name>.bench.ts).');
    return 0;
  }
  const env = settingsEnv(opts);
  const { smoke } = benchSettings(env);
  const benchDir = path.join(paths.stack, 'bench');
  await cleanStaleRuns(benchDir);
  const runDir = path.join(benchDir, `run-${process.pid}`);
  await mkdir(runDir, { recursive: true });
  const supervisor = new Supervisor({ logDir: path.join(benchDir, 'logs'), verbose: opts.verbose });
  // A smoke run's figures mean nothing: its results stay out of bench/results, where real runs are compared.
  const resultsDir = smoke ? path.join(benchDir, 'smoke-results') : path.join(paths.root, 'bench', 'results');
  const startedAt = new Date();
  const stamp = resultsFileName(startedAt);

  let interrupted = false;
  let resolveInterrupt: () => void = () => undefined;
  const interruptedPromise = new Promise<void>((resolve) => (resolveInterrupt = resolve));
  onShutdown((reason) => {
    interrupted = true;
    console.log(`\n[bench] ${reason} — stopping and tearing down…`);
    supervisor.beginShutdown();
    resolveInterrupt();
  });

  const outcomes: BenchOutcome[] = [];
  let report: BenchRunReport | undefined;
  const run = async (): Promise<void> => {
    const infra = await provisionIsolatedInfra({ paths, runDir, supervisor, progress, processPrefix: 'bench' });
    // Chain nodes only for a run that has a benchmark reading them: idle nodes would still take memory and start time.
    const chainEnv = selected.some(needsChainNodes) ? await provisionChainNodes({ supervisor, progress, runDir, processPrefix: 'bench' }) : {};
    const machine = machineInfo({ temporalCli: infra.temporalCli.version, ...(await postgresVersionEntry(infra.databaseUrl)) });
    progress.info(`settings: ${Object.values(BENCH_SETTINGS_ENV).map((v) => `${v}=${env[v]}`).join(' ')}`);
    // A smoke run measures nothing, so its benchmarks may share the machine: a few at a time, in the table's order.
    const concurrency = smoke ? SMOKE_CONCURRENCY : 1;
    const ctx: RunContext = { paths, runDir, resultsDir, stamp, supervisor, progress, infra, env: { ...env, ...chainEnv }, cpuProf: opts.cpuProf, temporalPerBenchmark: concurrency > 1 };
    outcomes.push(...(await atMostAtOnce(selected, concurrency, (entry) => (interrupted ? undefined : runOne(entry, ctx)))));
    report = { startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), ...commitEntry(paths.root), machine, benchmarks: outcomes };
  };

  let failure: unknown;
  try {
    const running = run();
    running.catch(() => undefined);
    await Promise.race([running, interruptedPromise]);
  } catch (error) {
    failure = error;
  }
  await supervisor.stopAll();
  await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  if (failure !== undefined && !interrupted) {
    progress.fail(failure);
    return 1;
  }
  if (interrupted || !report) return 1;
  const code = await finish(report, path.join(resultsDir, stamp), paths.root, opts.strict);
  if (smoke) console.log(dim('smoke run: tiny data, one short round, several benchmarks at once — the figures and targets mean nothing here; only that every benchmark ran to a result counts.'));
  return code;
}

async function postgresVersionEntry(url: string): Promise<{ postgres?: string }> {
  const version = await postgresVersion(url);
  return version ? { postgres: version } : {};
}

function commitEntry(root: string): { commit?: string } {
  const commit = gitCommit(root);
  return commit ? { commit } : {};
}

async function finish(report: BenchRunReport, file: string, root: string, strict: boolean): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  const { machine } = report;
  console.log(`\n${benchTable(report.benchmarks)}\n`);
  for (const line of benchFindings(report.benchmarks)) console.log(line);
  console.log(
    dim(`machine: ${machine.os}, ${machine.cpus.count}× ${machine.cpus.model}, ${machine.memoryGiB} GiB, Node ${machine.node}, PostgreSQL ${machine.postgres ?? '?'}, load ${machine.loadAverage.join(' ')}`),
  );
  console.log(`results: ${path.relative(root, file)}`);
  const code = benchExitCode(report.benchmarks, strict);
  console.log(`${summaryOf(report.benchmarks)}${code === 0 && report.benchmarks.some((o) => o.status === 'missed') ? ' (a missed target fails only with --strict)' : ''}`);
  return code;
}
