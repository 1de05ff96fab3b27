// A real service for integration tests: a fresh database (migrated) and the service listening on a free port.
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, type ServiceEnv } from '../config/index.js';
import { migrateUp } from '../database/index.js';
import { isAddressInUse, startOnFreePort } from '../http/ports.js';
import { createLogger, type Logger } from '../logging/index.js';
import type { ServiceDefinition } from '../runtime/definition.js';
import { openServiceDatabase, startService, type RunningService } from '../runtime/service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface ServiceHarness {
  db: TestDatabase;
  orm: MikroORM;
  service: RunningService;
  close(): Promise<void>;
}

/** `TEMPORAL_ADDRESS` of the test environment (the /readyz Temporal check dials it). */
export function testTemporalAddress(): string {
  return process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
}

/**
 * The definition's config for tests: its env schema with test values (PORT is a placeholder: see startServiceHarness;
 * NODE_ENV is `test`, so a service without SECRETS_ENCRYPTION_KEY uses the published development key).
 */
export function testServiceConfig<C extends ServiceEnv>(definition: ServiceDefinition<C, object>, databaseUrl: string, env: NodeJS.ProcessEnv = {}): C {
  return loadConfig(definition.env, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: testTemporalAddress(), ...env }) as C;
}

export interface ServiceHarnessOptions {
  /** Service variables added to the test config. */
  env?: NodeJS.ProcessEnv;
  /** The service's logger (e.g. capturingLogger's, to read its access log); silent by default. */
  logger?: Logger;
  /** Where the service's port comes from (tests of the harness itself); a free loopback port by default. */
  pickPort?: () => Promise<number>;
}

/**
 * Starts the service of `definition` on a fresh database `<name>_test_*` (migrated), on an ephemeral port.
 * `env` adds service-specific variables (e.g. short rate-limit windows) to the test config.
 */
export async function startServiceHarness<C extends ServiceEnv>(definition: ServiceDefinition<C, object>, options: ServiceHarnessOptions = {}): Promise<ServiceHarness> {
  const db = await createTestDatabase(`${definition.name}_test`);
  const logger = options.logger ?? createLogger({ service: definition.name, level: 'silent' });
  const orm = await openServiceDatabase(definition, db.url, logger);
  let service: RunningService;
  try {
    await migrateUp(orm);
    service = await startOnPickedPort(definition, db.url, logger, options);
  } catch (error) {
    await orm.close();
    await db.drop();
    throw error;
  }
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

/**
 * The service on a free port chosen up front (not PORT=0, so the config knows the port the service's own absolute URLs
 * use), again on a fresh one if it was taken before the bind (kit startOnFreePort). A PORT given in `env` is used as is.
 */
function startOnPickedPort<C extends ServiceEnv>(definition: ServiceDefinition<C, object>, dbUrl: string, logger: Logger, options: ServiceHarnessOptions): Promise<RunningService> {
  const start = (port: number) => startService(definition, testServiceConfig(definition, dbUrl, { SHUTDOWN_GRACE_MS: '1000', PORT: String(port), ...options.env }), logger);
  const given = options.env?.['PORT'] !== undefined;
  return startOnFreePort(start, { isPortTaken: (error) => !given && isAddressInUse(error), ...(options.pickPort ? { pickPort: options.pickPort } : {}) });
}

export interface GraphqlResponse {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

/** POSTs a GraphQL operation to `${url}/graphql`. */
export async function postGraphql(url: string, query: string, headers: Record<string, string> = {}, variables?: object): Promise<GraphqlResponse> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GraphqlResponse['body'] };
}

/**
 * The webhook engine's ids are plain uuid columns in its entities (no relation objects), so MikroORM does not know
 * the two foreign keys its migration creates and would drop them; everything else about those tables must match.
 */
const WEBHOOK_FOREIGN_KEY_DROPS = new Set([
  'alter table "webhook_deliveries" drop constraint "webhook_deliveries_redelivery_of_fkey";',
  'alter table "webhook_delivery_attempts" drop constraint "webhook_delivery_attempts_delivery_id_fkey";',
]);

/**
 * Schema statements MikroORM would still run to match the service's entities after the checked-in migrations
 * (empty when they agree), the webhook engine's tables included.
 */
export async function serviceSchemaDiff(orm: MikroORM): Promise<string[]> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
  return sql
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !WEBHOOK_FOREIGN_KEY_DROPS.has(line));
}
