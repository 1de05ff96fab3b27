// The services' built command lines (services/<name>/dist/cli.js, what a deployment runs) outside development: without
// SECRETS_ENCRYPTION_KEY, `serve` and `worker` stop at start with a message naming the variable instead of running on
// the published development key; `seed` refuses to write its published demo credentials, whatever the key.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import pg from 'pg';
import { generateSecretBoxKey } from '@tributary/kit';
import { createTestDatabase, testTemporalAddress, type TestDatabase } from '@tributary/kit/testing';
import { SERVICE_NAMES } from '@tributary/stack';
import { serviceCli } from './support/fault-stack.js';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cli <command>` with exactly `env` (plus PATH), never the test process's own NODE_ENV or key. */
function runCli(name: (typeof SERVICE_NAMES)[number], command: string, env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(process.execPath, [serviceCli(name), command], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

async function publicTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema = 'public'")).rows[0]!.n;
  } finally {
    await client.end();
  }
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('deployment_refusals');
});
afterAll(async () => {
  await db?.drop();
});

describe.each(SERVICE_NAMES)('%s built entry point outside development', (name) => {
  const base = () => ({ DATABASE_URL: db.url, TEMPORAL_ADDRESS: testTemporalAddress(), PORT: '1', LOG_LEVEL: 'silent' });

  it.each(['serve', 'worker'])('%s with NODE_ENV=staging and no SECRETS_ENCRYPTION_KEY exits 1 naming the variable', async (command) => {
    const exit = await runCli(name, command, { ...base(), NODE_ENV: 'staging' });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test (NODE_ENV is "staging")');
  });

  it('serve with NODE_ENV unset and no SECRETS_ENCRYPTION_KEY exits 1 naming the variable', async () => {
    const exit = await runCli(name, 'serve', base());
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test (NODE_ENV is unset)');
  });

  it('seed with NODE_ENV=production refuses, even with a key, and writes nothing', async () => {
    const exit = await runCli(name, 'seed', { ...base(), NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: generateSecretBoxKey() });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain(`${name} seed writes the published demo credentials and runs only when NODE_ENV is development or test (NODE_ENV is "production"); nothing was written.`);
    expect(exit.stdout).toBe('');
    expect(await publicTables(db.url)).toBe(0);
  });
});
