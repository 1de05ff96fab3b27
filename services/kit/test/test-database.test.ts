import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase } from '../src/testing/index.js';

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('creates a uniquely named, usable database and drops it even with open connections', async () => {
    const first = await createTestDatabase('Kit-Suite');
    const second = await createTestDatabase('Kit-Suite');
    const name = new URL(first.url).pathname.slice(1);
    expect(name).toMatch(/^kit_suite_[0-9a-f]{12}$/);
    expect(second.url).not.toBe(first.url);

    const lingering = new pg.Client({ connectionString: first.url });
    await lingering.connect();
    lingering.on('error', () => {});
    expect((await lingering.query('select current_database() as db')).rows[0].db).toBe(name);

    await first.drop();
    await first.drop();
    await second.drop();
    expect(await databaseExists(name)).toBe(false);
    await expect(lingering.query('select 1')).rejects.toThrow();
    await lingering.end().catch(() => {});
  });
});
