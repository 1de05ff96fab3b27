import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { ConfigError, kitMigrations } from '../../src/index.js';
import { runServiceCommand, seedRefusal } from '../../src/runtime/index.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/index.js';
import { notesService } from '../fixtures/notes-service.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('kit_runtime_cli');
});
afterAll(async () => {
  await db?.drop();
});

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const env = () => ({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test' });

describe('runServiceCommand', () => {
  it('migrate applies the definition’s migrations, and is a no-op the second time', async () => {
    await runServiceCommand(notesService, 'migrate', { env: env() });
    const names = (await query<{ name: string }>('select name from mikro_orm_migrations order by id')).map((row) => row.name);
    expect(names).toEqual([...kitMigrations.map((migration) => migration.name), '20250101000000_create_notes_table', '20250101000001_add_notes_author_index']);
    await runServiceCommand(notesService, 'migrate', { env: env() });
    expect(await query('select name from mikro_orm_migrations')).toHaveLength(kitMigrations.length + 2);
  });

  it('seed prints exactly one JSON line {"credentials": ...} and is idempotent', async () => {
    for (let run = 0; run < 2; run += 1) {
      const out = collect();
      await runServiceCommand(notesService, 'seed', { env: env(), stdout: out.stream });
      const lines = out.text().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe('');
      expect(JSON.parse(lines[0]!)).toEqual({ credentials: { author: 'seed', notes: 1 } });
    }
  });

  it('refuses a bad environment with a ConfigError naming the variable', async () => {
    const failure = runServiceCommand(notesService, 'migrate', { env: { DATABASE_URL: 'mysql://nope' } });
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(runServiceCommand(notesService, 'seed', { env: { NODE_ENV: 'test' } })).rejects.toThrow(/DATABASE_URL/);
  });

  it.each([['production'], ['staging'], [undefined]])('seed refuses with NODE_ENV=%s, naming why, and writes nothing', async (nodeEnv) => {
    const untouched = await createTestDatabase('kit_runtime_cli_refused_seed');
    try {
      const out = collect();
      const refused = runServiceCommand(notesService, 'seed', { env: { DATABASE_URL: untouched.url, LOG_LEVEL: 'silent', ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}) }, stdout: out.stream });
      await expect(refused).rejects.toThrow(seedRefusal('bnpl', nodeEnv));
      expect(seedRefusal('bnpl', nodeEnv)).toMatch(/runs only when NODE_ENV is development or test \(NODE_ENV is (unset|"\w+")\); nothing was written\.$/);
      expect(out.text()).toBe('');
      const client = new pg.Client({ connectionString: untouched.url });
      await client.connect();
      try {
        expect((await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'")).rows).toEqual([{ n: 0 }]);
      } finally {
        await client.end();
      }
    } finally {
      await untouched.drop();
    }
  });

  it('worker refuses to start without SECRETS_ENCRYPTION_KEY outside development, naming the variable', async () => {
    await expect(runServiceCommand(notesService, 'worker', { env: { DATABASE_URL: db.url, NODE_ENV: 'staging' } })).rejects.toThrow(
      /^Invalid configuration: SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test \(NODE_ENV is "staging"\)/,
    );
  });

  it('an unknown or missing command prints the usage and sets exit code 2', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      await runServiceCommand(notesService, 'frobnicate');
      expect(process.exitCode).toBe(2);
      process.exitCode = undefined;
      await runServiceCommand(notesService, undefined);
      expect(process.exitCode).toBe(2);
    } finally {
      process.exitCode = undefined;
      console.error = original;
    }
    expect(errors).toEqual(['usage: bnpl <migrate|seed|serve|worker>', 'usage: bnpl <migrate|seed|serve|worker>']);
  });
});
