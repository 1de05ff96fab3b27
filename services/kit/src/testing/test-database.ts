// Each test suite gets its own database on TEST_DATABASE_URL, so suites run in parallel and leave nothing behind.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Terminates every connection to the database and drops it. Safe to call twice. */
  drop(): Promise<void>;
}

export function testDatabaseAdminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: it must name a PostgreSQL server where tests may create databases');
  return url;
}

async function asAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates `<prefix>_<random>` (lower-case, at most 63 bytes: PostgreSQL's identifier limit). */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const adminUrl = testDatabaseAdminUrl();
  const safePrefix = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 40);
  const name = `${safePrefix}_${randomBytes(6).toString('hex')}`;
  // The name is built from [a-z0-9_] only, so quoting it as an identifier is safe.
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await asAdmin(adminUrl, async (client) => {
        // WITH (FORCE) terminates remaining sessions (e.g. a pool a test forgot to close).
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}
