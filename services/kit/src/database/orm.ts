// MikroORM bootstrap: one database per service, entities defined with defineEntity (no decorators),
// migrations as checked-in classes listed explicitly (no file globbing, so the built dist runs them too).
import { RequestContext, type Constructor, type EntityClass, type EntitySchema, type MigrationObject } from '@mikro-orm/core';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logging/index.js';
import { observeDatabasePool, type ObservedPool } from '../observability/metrics.js';
import { DATABASE_DEADLINES, DATABASE_KEEPALIVE_DELAY_MS, deadlineClientOptions, guardCheckedOutConnections, type DatabaseDeadlines, type GuardedPool } from './deadlines.js';
import { PinoOrmLogger } from './orm-logger.js';

export type EntityClassOrSchema = EntityClass<object> | EntitySchema<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface CreateOrmOptions {
  clientUrl: string;
  entities: EntityClassOrSchema[];
  /** Applied in this order; a migration's `name` is what the migrations table records, so never rename one. */
  migrations: Array<MigrationObject | Constructor<Migration>>;
  logger?: Logger;
  /** Log every query (SQL with placeholders, never values) at debug level. */
  debug?: boolean;
  /** Connection pool bounds; MikroORM's defaults otherwise. */
  pool?: { min?: number; max?: number };
  /** Reports the connection pool in the tributary_db_pool_* metrics under this service name. */
  metricsService?: string;
  /**
   * Every statement's deadlines (deadlines.ts; DATABASE_DEADLINES by default). `false` for `migrate` only: a schema
   * change may rightly run longer, and an operator watches it.
   */
  deadlines?: DatabaseDeadlines | false;
}

/**
 * How long a request waits for a database connection (a new one, or a free one from the pool) before it fails: a
 * server that accepts connections but never answers must not hang requests (they become 503s, see unavailable.ts).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 10_000;

/** What the ORM does with the `pg` Pool MikroORM creates (on first connect): its deadlines, its metrics. */
function onPoolCreated(options: CreateOrmOptions): (pool: GuardedPool & ObservedPool) => void {
  const deadlines = options.deadlines ?? DATABASE_DEADLINES;
  return (pool) => {
    if (deadlines) guardCheckedOutConnections(pool, deadlines.queryTimeoutMs);
    if (options.metricsService) observeDatabasePool(pool, options.metricsService);
  };
}

export async function createOrm(options: CreateOrmOptions): Promise<MikroORM> {
  const { logger } = options;
  return MikroORM.init({
    clientUrl: options.clientUrl,
    entities: options.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: options.migrations,
      tableName: 'mikro_orm_migrations',
      // Each migration and the whole batch run in transactions: a failure leaves the schema as it was.
      transactional: true,
      allOrNothing: true,
      // Snapshots only serve migration generation, never running ones.
      snapshot: false,
      silent: true,
    },
    debug: options.debug ? ['query', 'info'] : false,
    ...(logger ? { loggerFactory: (loggerOptions) => new PinoOrmLogger(logger.child({ component: 'orm' }), loggerOptions) } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
    driverOptions: {
      connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: DATABASE_KEEPALIVE_DELAY_MS,
      ...deadlineClientOptions(options.deadlines ?? DATABASE_DEADLINES),
      // MikroORM's PostgreSQL connection hands the `pg` Pool it creates to driverOptions.onPoolCreated.
      onPoolCreated: onPoolCreated(options),
    },
  });
}

/** Applies pending migrations; returns the names applied (empty when already up to date). */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}

/** The EntityManager of the current request (see createServiceApp's `orm` option). */
export function requestEntityManager(): EntityManager {
  const em = RequestContext.getEntityManager();
  if (!em) throw new Error('No request-scoped EntityManager: call this inside a request handled by createServiceApp({ orm })');
  return em as EntityManager;
}

/**
 * A /readyz check that passes while the database answers. A freshly opened ORM has not connected yet (MikroORM reports
 * "not established" until its first query), so the check connects it first, without the ORM's on-connect steps
 * (`ensureDatabase` would create a missing database instead of reporting it).
 */
export function databaseReadiness(orm: MikroORM): { name: string; check: () => Promise<void> } {
  return {
    name: 'database',
    async check() {
      const connection = orm.driver.getConnection();
      if (!(await connection.isConnected())) await connection.connect({ skipOnConnect: true });
      const result = await connection.checkConnection();
      if (!result.ok) throw new Error(`database unreachable: ${result.reason}`);
    },
  };
}
