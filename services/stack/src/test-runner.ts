// `npm test`: typecheck + lint, then an isolated PostgreSQL and Temporal (own cluster and ports, so it
// runs next to `npm start`), the time-skipping test server, test TLS, and one Jest run over every
// project. Ends with one line `N passed, N failed[, N skipped]` and a non-zero exit on any failure.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { provisionChainNodes } from './chain-nodes.js';
import { describeError, StackError } from './errors.js';
import { cleanStaleRuns, provisionIsolatedInfra } from './isolated-infra.js';
import { onShutdown } from './lifecycle.js';
import { stackPaths, type StackPaths } from './paths.js';
import { createProgress, type Progress } from './progress.js';
import { CONTRACT_FUZZ_DEPTH_ENV, SCHEMATHESIS_PATH_ENV, SCHEMATHESIS_VERSION, ensureSchemathesis } from './schemathesis.js';
import { REDIS_SERVER, TEST_REDIS_URL_ENV, startTestRedis } from './redis.js';
import { randomEncryptionKey } from './secrets.js';
import { Supervisor } from './supervisor.js';
import { discoverTestServer } from './temporal.js';

/** V8 heap of the Jest process, MB (see where it is passed). */
const JEST_HEAP_MB = 6144;

export interface TestOptions {
  /** Passed to Jest unchanged (e.g. --selectProjects kit). */
  jestArgs: string[];
  /** Run typecheck and lint first. Default: only when no Jest arguments are given. */
  checks?: boolean;
  verbose: boolean;
}

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export function summaryLine(t: Tally): string {
  return `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
}

interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numRuntimeErrorTestSuites: number;
}

/** Reads Jest's --json output; suites that failed to run count as failures. */
export function tallyJest(file: string, exitCode: number | null): Tally {
  let json: JestJson | undefined;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as JestJson;
  } catch {
    json = undefined;
  }
  if (!json) return { passed: 0, failed: 1, skipped: 0 };
  const tally = {
    passed: json.numPassedTests,
    failed: json.numFailedTests + json.numRuntimeErrorTestSuites,
    skipped: json.numPendingTests + json.numTodoTests,
  };
  // Jest failed for a reason it does not count as a test (no tests found, coverage, a crash): still a failure.
  if (exitCode !== 0 && tally.failed === 0) tally.failed = 1;
  return tally;
}

async function runChecks(paths: StackPaths, supervisor: Supervisor, progress: Progress): Promise<Tally> {
  const tally: Tally = { passed: 0, failed: 0, skipped: 0 };
  const bin = path.join(paths.root, 'node_modules', '.bin');
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` };
  const checks = [
    { name: 'typecheck', command: path.join(bin, 'turbo'), args: ['run', 'typecheck', '--output-logs=errors-only'] },
    // The cross-service tests are no workspace, so turbo does not reach them.
    { name: 'typecheck tests', command: path.join(bin, 'tsc'), args: ['-p', 'tests', '--noEmit'] },
    {
      name: 'lint',
      command: process.execPath,
      args: [path.join(paths.root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.', '--cache', '--cache-location', path.join(paths.stack, 'cache', 'eslint')],
    },
  ];
  for (const check of checks) {
    try {
      await progress.step(check.name, () => supervisor.run({ ...check, env, cwd: paths.root }));
      tally.passed += 1;
    } catch (error) {
      tally.failed += 1;
      const log = error instanceof StackError && error.logFile ? error.logFile : undefined;
      console.error(log ? readFileSync(log, 'utf8').split('\n').slice(-60).join('\n') : describeError(error));
    }
  }
  return tally;
}

export async function runTests(opts: TestOptions): Promise<number> {
  const paths = stackPaths();
  const progress = createProgress('test');
  await cleanStaleRuns(paths.test);
  const runDir = path.join(paths.test, `run-${process.pid}`);
  await mkdir(runDir, { recursive: true });
  const supervisor = new Supervisor({ logDir: path.join(paths.test, 'logs'), verbose: opts.verbose });

  let interrupted: NodeJS.Signals | 'launcher-exit' | undefined;
  let resolveInterrupt: () => void = () => undefined;
  const interruptedPromise = new Promise<void>((resolve) => (resolveInterrupt = resolve));
  onShutdown((reason) => {
    interrupted = reason;
    console.log(`\n[test] ${reason} — stopping tests and tearing down…`);
    supervisor.beginShutdown();
    resolveInterrupt();
  });

  const tally: Tally = { passed: 0, failed: 0, skipped: 0 };
  const add = (t: Tally): void => {
    tally.passed += t.passed;
    tally.failed += t.failed;
    tally.skipped += t.skipped;
  };

  const run = async (): Promise<void> => {
    if (opts.checks ?? opts.jestArgs.length === 0) add(await runChecks(paths, supervisor, progress));

    const { databaseUrl, temporalAddress, temporalCli: cli } = await provisionIsolatedInfra({ paths, runDir, supervisor, progress, processPrefix: 'test' });
    const testServer =
      process.env['TEMPORAL_TEST_SERVER_PATH'] ||
      (await progress.step('Temporal time-skipping test server', () => discoverTestServer({ pythonTools: paths.pythonTools }), (p) => p));

    const chainEnv = await provisionChainNodes({ supervisor, progress, runDir, processPrefix: 'test' });
    const schemathesisEnv = await provisionSchemathesis(paths, progress);
    const redisEnv = await provisionRedis(supervisor, progress);

    await progress.step(`test TLS in ${path.relative(paths.root, paths.testTls)}`, async () => {
      const specifier = '@tributary/kit/testing';
      const kit = (await import(specifier)) as { generateTestTls(dir: string): Promise<void> };
      await kit.generateTestTls(paths.testTls);
    });

    if (interrupted) return;
    const results = path.join(runDir, 'jest.json');
    const jest = supervisor.spawn({
      name: 'jest',
      command: process.execPath,
      args: [
        '--experimental-vm-modules',
        // Test files run in a worker that is replaced once it holds more than jest.config.mjs's workerIdleMemoryLimit;
        // the heap limit leaves one large file (browser and fuzz suites) room above that.
        `--max-old-space-size=${JEST_HEAP_MB}`,
        path.join(paths.root, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--json',
        `--outputFile=${results}`,
        ...opts.jestArgs,
      ],
      cwd: paths.root,
      tier: 'service',
      inheritStdio: true,
      graceMs: 10_000,
      env: {
        ...process.env,
        PATH: `${path.join(paths.root, 'node_modules', '.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
        TEST_DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporalAddress,
        TEMPORAL_TEST_SERVER_PATH: testServer,
        TEMPORAL_CLI_PATH: cli.path,
        ...chainEnv,
        ...schemathesisEnv,
        ...redisEnv,
        TRIBUTARY_TEST_TLS_DIR: paths.testTls,
        // A fresh key per run: nothing sealed in a test database outlives it.
        SECRETS_ENCRYPTION_KEY: randomEncryptionKey(),
        NODE_EXTRA_CA_CERTS: path.join(paths.testTls, 'ca.pem'),
        NODE_OPTIONS: [process.env['NODE_OPTIONS'], '--no-warnings=ExperimentalWarning'].filter(Boolean).join(' '),
      },
    });
    const exit = await jest.exited;
    add(tallyJest(results, exit.code));
  };

  try {
    const running = run();
    running.catch(() => undefined); // after an interrupt it may still reject; the race below reports
    await Promise.race([running, interruptedPromise]);
  } catch (error) {
    if (!interrupted) {
      progress.fail(error);
      tally.failed += 1;
    }
  }
  if (interrupted && tally.failed === 0) tally.failed = 1; // an interrupted run never passes
  const t = Date.now();
  await supervisor.stopAll();
  await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  progress.info(`torn down in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  console.log(summaryLine(tally));
  return tally.failed > 0 ? 1 : 0;
}

/** A throwaway Redis for the tests that share a rate-limit store (TEST_REDIS_URL set is used as it is). */
async function provisionRedis(supervisor: Supervisor, progress: Progress): Promise<NodeJS.ProcessEnv> {
  if (process.env[TEST_REDIS_URL_ENV]) return {};
  if (!existsSync(REDIS_SERVER)) {
    progress.info(`${REDIS_SERVER} is missing: the tests that need Redis fail until \`apt-get install -y redis-server\` has run (or TEST_REDIS_URL is set)`);
    return {};
  }
  const redis = await progress.step('Redis: throwaway server', () => startTestRedis({ supervisor, name: 'test-redis' }), (r) => r.url);
  return { [TEST_REDIS_URL_ENV]: redis.url };
}

/**
 * Schemathesis for the contract-fuzz tests, its launcher in SCHEMATHESIS_PATH (one already set is used as it is).
 * When pip cannot install it the run goes on and those tests fail naming the fix.
 */
async function provisionSchemathesis(paths: StackPaths, progress: Progress): Promise<NodeJS.ProcessEnv> {
  if (process.env[SCHEMATHESIS_PATH_ENV]) return {};
  try {
    const launcher = await progress.step(`Schemathesis ${SCHEMATHESIS_VERSION} (PyPI)`, () => ensureSchemathesis({ pythonTools: paths.pythonTools }), (p) => path.relative(paths.root, p));
    return { [SCHEMATHESIS_PATH_ENV]: launcher };
  } catch (error) {
    progress.fail(error);
    progress.info('the contract-fuzz tests will fail until Schemathesis is installed');
    return {};
  }
}

/** The fuzz tests `npm run fuzz` runs: the kit's property-based suite and Schemathesis, per service. */
const FUZZ_TEST_PATHS = String.raw`/test/(contract-)?fuzz\.test\.ts$`;
/** Runs of the kit's fuzz suite per input in the deep run (25 in npm test). */
const DEEP_FUZZ_RUNS = '100';

/**
 * `npm run fuzz`: the deep run of the fuzz tests alone (no typecheck/lint): CONTRACT_FUZZ_DEPTH=deep (every
 * Schemathesis phase, stateful included, many more examples, negative_data_rejection) and FUZZ_RUNS=100 unless set.
 */
export function runFuzz(jestArgs: string[]): Promise<number> {
  process.env[CONTRACT_FUZZ_DEPTH_ENV] = 'deep';
  process.env['FUZZ_RUNS'] ??= DEEP_FUZZ_RUNS;
  return runTests({
    jestArgs: ['--selectProjects', 'bnpl', 'crypto', 'photos', '--testPathPatterns', FUZZ_TEST_PATHS, ...jestArgs],
    checks: false,
    verbose: process.env['STACK_VERBOSE'] === '1',
  });
}
