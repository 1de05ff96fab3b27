// Real processes for the fault tests: a private embedded PostgreSQL this file may stop and start again, the services'
// own `migrate`, `seed`, `serve` and `worker` commands (services/<name>/dist/cli.js, as `npm start` runs them), all
// under the stack's Supervisor, whose reaper stops them even if the test process itself dies.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { freeLoopbackPort } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import {
  parseSeedCredentials,
  startEmbeddedPostgres,
  startTemporalDevServer,
  startTemporalDevServerOnFreePort,
  Supervisor,
  type EmbeddedPostgres,
  type ManagedProcess,
  type ServiceName,
} from '@tributary/stack';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** How long a service process may take to answer /readyz 200 after it starts. */
const SERVICE_START_TIMEOUT_MS = 60_000;

export function serviceCli(name: ServiceName): string {
  return path.join(repoRoot, 'services', name, 'dist', 'cli.js');
}

/** A PostgreSQL cluster of the test's own, on a free port; stop() and start() keep its data and its port. */
export interface PrivatePostgres {
  /** Admin URL (database `postgres`). */
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A Temporal dev server of the test's own (SQLite file, so stop() and start() keep every workflow), on a free port. */
export interface PrivateTemporal {
  /** host:port of its frontend. */
  readonly address: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface ServiceProcess {
  readonly name: string;
  /** http://127.0.0.1:<port> for `serve`; '' for `worker`. */
  readonly url: string;
  readonly process: ManagedProcess;
  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface FaultStack {
  readonly supervisor: Supervisor;
  /** A scratch directory removed by close(). */
  readonly dir: string;
  postgres(): Promise<PrivatePostgres>;
  /** Needs TEMPORAL_CLI_PATH (set by `npm test`). */
  temporal(): Promise<PrivateTemporal>;
  /** Runs the service's migrate and seed on the (existing) database at `databaseUrl`; returns the seed's credentials. */
  prepareDatabase(name: ServiceName, databaseUrl: string, env?: NodeJS.ProcessEnv): Promise<Record<string, unknown>>;
  /** `serve` on a free loopback port, once /readyz answers 200. */
  serve(name: ServiceName, env: NodeJS.ProcessEnv, label?: string): Promise<ServiceProcess>;
  worker(name: ServiceName, env: NodeJS.ProcessEnv, label?: string): ServiceProcess;
  /** Stops every process started here (services first, PostgreSQL last) and removes the scratch directory (kept with KEEP_FAULT_DIR=1, to read its logs). */
  close(): Promise<void>;
}

/** The chain nodes `npm test` shares with the chain tests: a fault test's crypto watches none of them. */
const SHARED_CHAIN_NODE = /^CRYPTO_[A-Z]+_RPC_URL$/;

/** What every service process of a fault test gets besides its database: loopback, quiet logs, a short grace. */
function baseEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SHARED_CHAIN_NODE.test(name)));
  return { ...inherited, HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '1000', ...extra };
}

function asServiceProcess(name: string, url: string, proc: ManagedProcess): ServiceProcess {
  return {
    name,
    url,
    process: proc,
    async kill() {
      if (!proc.running) return;
      process.kill(-proc.pid, 'SIGKILL');
      await proc.exited;
    },
    async stop() {
      await proc.stop();
    },
  };
}

export async function startFaultStack(label: string): Promise<FaultStack> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `tributary-${label}-`));
  // As root PostgreSQL runs as the postgres user, which must reach its cluster under this directory.
  await chmod(dir, 0o755);
  const supervisor = new Supervisor({ logDir: path.join(dir, 'logs') });
  let started = 0;

  return {
    supervisor,
    dir,
    async postgres() {
      const port = await freeLoopbackPort();
      const dataDir = path.join(dir, `postgres-${++started}`);
      let cluster: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, port, supervisor, name: `${label}-postgres`, ephemeral: true });
      return {
        url: cluster.url,
        stop: () => cluster.stop(),
        async start() {
          cluster = await startEmbeddedPostgres({ dataDir, port, supervisor, name: `${label}-postgres`, ephemeral: true });
        },
      };
    },
    async temporal() {
      const cli = process.env['TEMPORAL_CLI_PATH'];
      if (!cli) throw new Error('TEMPORAL_CLI_PATH is not set: run this test through `npm test`, which finds the Temporal CLI');
      const dbFile = path.join(dir, `temporal-${++started}.db`);
      const name = `${label}-temporal`;
      let server = await startTemporalDevServerOnFreePort({ cli, supervisor, dbFile, name });
      // A restart keeps the address the services hold.
      const port = Number(server.address.split(':').pop());
      const start = () => startTemporalDevServer({ cli, supervisor, port, dbFile, name });
      return {
        address: server.address,
        stop: async () => {
          await server.process.stop();
        },
        async start() {
          server = await start();
        },
      };
    },
    async prepareDatabase(name, url, env = {}) {
      const run = (command: 'migrate' | 'seed') =>
        supervisor.run({ name: `${label}-${name}-${command}`, command: process.execPath, args: [serviceCli(name), command], env: baseEnv({ ...env, DATABASE_URL: url }), captureStdout: true });
      await run('migrate');
      const seeded = await run('seed');
      const credentials = parseSeedCredentials(seeded.stdout);
      if (!credentials) throw new Error(`${name} seed printed no credentials:\n${seeded.tail(20)}`);
      return credentials;
    },
    async serve(name, env, processLabel = `${label}-${name}-serve`) {
      const port = await freeLoopbackPort();
      const url = `http://127.0.0.1:${port}`;
      const proc = supervisor.spawn({ name: processLabel, command: process.execPath, args: [serviceCli(name), 'serve'], env: baseEnv({ ...env, PORT: String(port), PUBLIC_BASE_URL: url }), tier: 'service', graceMs: 10_000 });
      const ready = await waitFor(
        () => fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0),
        (status) => status === 200 || !proc.running,
        SERVICE_START_TIMEOUT_MS,
      );
      if (ready !== 200) {
        await proc.stop();
        throw new Error(`${processLabel} did not become ready (last /readyz ${ready}):\n${proc.tail(30)}`);
      }
      return asServiceProcess(processLabel, url, proc);
    },
    worker(name, env, processLabel = `${label}-${name}-worker`) {
      const proc = supervisor.spawn({ name: processLabel, command: process.execPath, args: [serviceCli(name), 'worker'], env: baseEnv(env), tier: 'service', graceMs: 10_000 });
      return asServiceProcess(processLabel, '', proc);
    },
    async close() {
      await supervisor.stopAll();
      if (!process.env.KEEP_FAULT_DIR) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once `taskQueue` has a workflow poller on the server at `address`: a worker that has started and connected.
 * A test that stops Temporal right after spawning a worker would otherwise catch it mid-start (it exits when its first
 * connection is refused).
 */
export async function waitForWorker(address: string, taskQueue: string, timeoutMs = 90_000): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const describe = async () => (await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: taskQueue }, taskQueueType: 1 })).pollers ?? [];
    await waitFor(describe, (pollers) => pollers.length > 0, timeoutMs);
  } finally {
    await connection.close();
  }
}

/** One statement on its own connection: what a fault test reads back from a service's database. */
export async function queryDatabase<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The hosts a fault test's services may send webhooks to (the local receiver). */
export const WEBHOOK_TEST_HOSTS = 'localhost,127.0.0.1';

export type RetryingReceiver = HttpsReceiver & { arrivals(): Map<string, Date[]> };

/**
 * A local HTTPS webhook receiver that refuses (503) the first attempt of every event (by its `webhook-id`) and accepts
 * every later one, so each delivery waits for a retry timer. `arrivals` lists each event's arrival times.
 */
export async function startRetryingReceiver(): Promise<RetryingReceiver> {
  const refused = new Set<string>();
  const receiver = await startHttpsReceiver({
    respond: (request) => {
      const id = String(request.headers['webhook-id']);
      if (refused.has(id)) return { status: 200 };
      refused.add(id);
      return { status: 503 };
    },
  });
  return Object.assign(receiver, {
    arrivals() {
      const byId = new Map<string, Date[]>();
      for (const request of receiver.requests) {
        const id = String(request.headers['webhook-id']);
        byId.set(id, [...(byId.get(id) ?? []), request.receivedAt]);
      }
      return byId;
    },
  });
}
