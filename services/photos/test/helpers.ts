import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger, loadConfig, migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { photosEnv, openDatabase, startService, type RunningPhotosService } from '../src/service.js';

export interface Harness {
  db: TestDatabase;
  orm: MikroORM;
  service: RunningPhotosService;
  close(): Promise<void>;
}

/** A real photos service on a fresh database (migrated), listening on a free port. */
export async function startHarness(): Promise<Harness> {
  const db = await createTestDatabase('photos_test');
  const logger = createLogger({ service: 'photos', level: 'silent' });
  const orm = await openDatabase(db.url, logger);
  await migrateUp(orm);
  const config = loadConfig(photosEnv, {
    PORT: '1',
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    SHUTDOWN_GRACE_MS: '1000',
  });
  // loadConfig refuses PORT=0 (1..65535); listen on an ephemeral port instead.
  const service = await startService({ ...config, PORT: 0 }, logger);
  return {
    db,
    orm,
    service,
    async close() {
      await service.close();
      await orm.close();
      await db.drop();
    },
  };
}

export async function gql(url: string, query: string, headers: Record<string, string> = {}, variables?: object) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
}

/**
 * Schema statements MikroORM would still run to match this service's own entities after the checked-in migrations
 * (empty when they agree). The webhook engine's tables are checked by the kit's own tests, not here.
 */
export async function ownSchemaDiff(orm: MikroORM): Promise<string[]> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
  return sql.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.includes('"webhook_deliver'));
}
