// The throwaway infrastructure `npm test` and `npm run bench` run on: PostgreSQL (TEST_DATABASE_URL or DATABASE_URL,
// else an embedded cluster in the run's directory on a free port) and Temporal (TEST_TEMPORAL_ADDRESS, else an
// in-memory dev server on a free port). Own cluster and ports, so either runs next to `npm start`.
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freeLoopbackPort } from '@tributary/kit';
import type { StackPaths } from './paths.js';
import { checkExternalPostgres, redactUrl, startEmbeddedPostgres } from './postgres.js';
import type { Progress } from './progress.js';
import type { Supervisor } from './supervisor.js';
import { discoverTemporalCli, SOURCE_LABEL, startTemporalDevServerOnFreePort, waitForTemporal, type FoundBinary } from './temporal.js';

export interface IsolatedInfra {
  /** A server where the run may create databases (each suite or benchmark creates its own). */
  databaseUrl: string;
  temporalAddress: string;
  temporalCli: FoundBinary;
}

export interface IsolatedInfraOptions {
  paths: StackPaths;
  /** This run's own directory (the embedded cluster's data lives there). */
  runDir: string;
  supervisor: Supervisor;
  progress: Progress;
  /** Prefix of the supervised processes' names (and log files): `<prefix>-postgres`, `<prefix>-temporal`. */
  processPrefix: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes `run-<pid>` directories under `dir` whose process is gone (earlier runs killed before their teardown). */
export async function cleanStaleRuns(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const match = /^run-(\d+)$/.exec(entry);
    if (match && !alive(Number(match[1]))) await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

async function provisionPostgres({ runDir, supervisor, progress, processPrefix }: IsolatedInfraOptions): Promise<string> {
  const external = process.env['TEST_DATABASE_URL'] || process.env['DATABASE_URL'];
  if (external) {
    const variable = process.env['TEST_DATABASE_URL'] ? 'TEST_DATABASE_URL' : 'DATABASE_URL';
    await progress.step('PostgreSQL: existing server', () => checkExternalPostgres(external, variable), () => redactUrl(external));
    return external;
  }
  const port = await freeLoopbackPort();
  const pg = await progress.step(`PostgreSQL: embedded ${processPrefix} cluster, port ${port}`, () =>
    startEmbeddedPostgres({ dataDir: path.join(runDir, 'postgres'), port, supervisor, name: `${processPrefix}-postgres`, ephemeral: true }),
  );
  return pg.url;
}

async function provisionTemporal(cli: FoundBinary, { supervisor, progress, processPrefix }: IsolatedInfraOptions): Promise<string> {
  const external = process.env['TEST_TEMPORAL_ADDRESS'];
  if (external) {
    await progress.step(`Temporal: TEST_TEMPORAL_ADDRESS ${external}`, () => waitForTemporal(external, 'default', { timeoutMs: 15_000 }));
    return external;
  }
  const server = await progress.step(
    'Temporal dev server: in memory',
    () => startTemporalDevServerOnFreePort({ cli: cli.path, supervisor, name: `${processPrefix}-temporal` }),
    (started) => started.address,
  );
  return server.address;
}

/** PostgreSQL and Temporal for one run; the supervisor stops what was started here. */
export async function provisionIsolatedInfra(options: IsolatedInfraOptions): Promise<IsolatedInfra> {
  const { paths, progress } = options;
  const databaseUrl = await provisionPostgres(options);
  const temporalCli = await progress.step(
    'Temporal CLI',
    () => discoverTemporalCli({ pythonTools: paths.pythonTools, sdkDownloads: paths.sdkDownloads, onAttempt: (m) => progress.info(m) }),
    (found) => `${found.version} ${SOURCE_LABEL[found.source]}`,
  );
  const temporalAddress = await provisionTemporal(temporalCli, options);
  return { databaseUrl, temporalAddress, temporalCli };
}
