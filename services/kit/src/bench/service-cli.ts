// A service under a benchmark, run through its own command line (`<service>/dist/cli.js migrate | seed | serve |
// worker`, what the stack and production run): a fresh migrated and seeded database, then `serve` or `worker` in its
// own process. For benchmarks that need a service without importing it (the gateway's, the soak across services).
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVICE_NODE_FLAGS } from '../config/node-flags.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { BENCH_LOG_DIR_ENV, cpuProfileFlags, startBenchServer, type BenchServer } from './server-process.js';

const run = promisify(execFile);

/** The services whose command line a benchmark can run. */
export type BenchServiceName = 'bnpl' | 'crypto' | 'photos';

/** `<workspace>/dist/cli.js` of a service (resolved through its package, as any workspace resolves it). */
export function serviceCliPath(service: BenchServiceName): string {
  const entry = createRequire(import.meta.url).resolve(`@tributary/${service}`);
  return path.join(path.dirname(entry), 'cli.js');
}

export interface SeededServiceDatabase {
  db: TestDatabase;
  /** What `seed` printed: the service's demo credentials (api keys, tokens, ids). */
  credentials: Record<string, unknown>;
}

/** A fresh database with the service's migrations and its demo data (`migrate`, then `seed`). */
export async function seededServiceDatabase(service: BenchServiceName, env: NodeJS.ProcessEnv = {}): Promise<SeededServiceDatabase> {
  const db = await createTestDatabase(`${service}_bench`);
  try {
    const cli = serviceCliPath(service);
    // The benchmark's own throwaway database: seeded as a developer's would be (seed runs only in development).
    const childEnv = { ...process.env, NODE_ENV: 'development', ...env, DATABASE_URL: db.url, LOG_LEVEL: 'warn' };
    await run(process.execPath, [cli, 'migrate'], { env: childEnv });
    const { stdout } = await run(process.execPath, [cli, 'seed'], { env: childEnv });
    const { credentials } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { credentials: Record<string, unknown> };
    return { db, credentials };
  } catch (error) {
    await db.drop();
    throw error;
  }
}

/** `<service> serve` on a free port, ready once /readyz answers (its database and Temporal reachable). */
export function startServiceServe(service: BenchServiceName, databaseUrl: string, env: NodeJS.ProcessEnv = {}, name: string = service): Promise<BenchServer> {
  return startBenchServer({ name, script: serviceCliPath(service), args: ['serve'], readyPath: '/readyz', env: { ...env, DATABASE_URL: databaseUrl } });
}

export interface BenchWorker {
  name: string;
  pid: number;
  logFile: string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone (its CPU profile written). */
  stop(): Promise<void>;
}

/**
 * `<service> worker` in its own process (it serves no HTTP: it is up once it polls Temporal, which its first workflow
 * shows). `without` names inherited variables it must not see (e.g. chain node URLs whose watchers are not measured).
 */
export function startServiceWorker(service: BenchServiceName, databaseUrl: string, env: NodeJS.ProcessEnv = {}, without: readonly string[] = []): BenchWorker {
  const name = `${service}-worker`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATABASE_URL: databaseUrl };
  for (const variable of without) delete childEnv[variable];
  const logDir = process.env[BENCH_LOG_DIR_ENV] ?? tmpdir();
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...cpuProfileFlags(name), serviceCliPath(service), 'worker'], { env: childEnv, stdio: ['ignore', log, log] });
  closeSync(log);
  const stop = (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  };
  return { name, pid: child.pid ?? -1, logFile, stop };
}
