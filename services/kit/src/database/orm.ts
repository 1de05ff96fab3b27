// MikroORM bootstrap: one database per service, entities defined with defineEntity (no decorators),
// migrations as checked-in classes listed explicitly (no file globbing, so the built dist runs them too).
import { RequestContext, type Constructor, type EntityClass, type EntitySchema, type MigrationObject } from '@mikro-orm/core';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logging/index.js';
import { observeDatabasePool, type ObservedPool } from '../observability/metrics.js';
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
   * Statement and query timeouts (DATABASE_DEADLINES by default). `false` for `migrate` only: a schema change may
   * rightly run longer, and an operator watches it.
   */
  deadlines?: DatabaseDeadlines | false;
}

/** How long one statement may take, at the server and at the client. */
export interface DatabaseDeadlines {
  /** PostgreSQL cancels a statement running longer (`statement_timeout`, lock waits included). */
  statementTimeoutMs: number;
  /**
   * The client gives up on a statement it has had no answer to (`pg`'s `query_timeout`). Longer than the server's own,
   * so a live server cancels first (a clean error, the connection stays usable); this one is for a server that does
   * not answer at all (a partition, a stopped process), where nothing else would end the wait.
   */
  queryTimeoutMs: number;
}

/**
 * How long a request waits for a database connection (a new one, or a free one from the pool) before it fails: a
 * server that accepts connections but never answers must not hang requests (they become 503s, see unavailable.ts).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 10_000;

/** Every statement of serve, worker and seed: cancelled by the server after 10 s, given up by the client after 12 s. */
export const DATABASE_DEADLINES: DatabaseDeadlines = { statementTimeoutMs: 10_000, queryTimeoutMs: 12_000 };

/**
 * TCP keepalive probes start after a pooled connection has been idle this long: a connection to a server that went
 * away without a word (a partition, a lost host) is noticed and dropped by the pool instead of handed to a request.
 */
export const DATABASE_KEEPALIVE_DELAY_MS = 10_000;

/** The `pg` Client options behind DatabaseDeadlines (MikroORM hands driverOptions to the `pg` Pool, which gives them to each Client). */
function deadlineOptions(deadlines: DatabaseDeadlines | false): Record<string, number> {
  return deadlines ? { statement_timeout: deadlines.statementTimeoutMs, query_timeout: deadlines.queryTimeoutMs } : {};
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
      ...deadlineOptions(options.deadlines ?? DATABASE_DEADLINES),
      // MikroORM's PostgreSQL connection hands the `pg` Pool it creates (on first connect) to driverOptions.onPoolCreated.
      ...(options.metricsService ? { onPoolCreated: (pool: ObservedPool) => observeDatabasePool(pool, options.metricsService!) } : {}),
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
