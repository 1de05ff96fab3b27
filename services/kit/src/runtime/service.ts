// The `serve` side of the runtime: a service's database, app and HTTP server from its definition.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ServiceEnv } from '../config/index.js';
import { createOrm, type CreateOrmOptions } from '../database/index.js';
import { startHttpServer, type RunningServer } from '../http/index.js';
import { createLogger, type Logger } from '../logging/index.js';
import type { ServiceDefinition } from './definition.js';

/** Opens the service's ORM (its entities and checked-in migrations); the caller closes it. */
export function openServiceDatabase(
  definition: Pick<ServiceDefinition, 'name' | 'entities' | 'migrations'>,
  databaseUrl: string,
  logger?: Logger,
  options: Pick<CreateOrmOptions, 'deadlines'> = {},
): Promise<MikroORM> {
  return createOrm({ clientUrl: databaseUrl, entities: definition.entities, migrations: definition.migrations, metricsService: definition.name, ...(logger ? { logger } : {}), ...options });
}

export interface RunningService extends RunningServer {
  orm: MikroORM;
}

/** Starts the HTTP service (REST + /graphql + probes) on config.PORT; close() drains requests, then releases everything. */
export async function startService<C extends ServiceEnv>(
  definition: ServiceDefinition<C, object>,
  config: C,
  logger: Logger = createLogger({ service: definition.name, level: config.LOG_LEVEL }),
): Promise<RunningService> {
  const orm = await openServiceDatabase(definition, config.DATABASE_URL, logger);
  try {
    const built = await definition.buildApp({ orm, logger, config });
    try {
      const server = await startHttpServer(built.app, {
        port: config.PORT,
        host: config.HOST,
        logger,
        graceMs: config.SHUTDOWN_GRACE_MS,
        onClose: [built.close, () => orm.close()],
      });
      return Object.assign(server, { orm });
    } catch (error) {
      // The port could not be bound (e.g. EADDRINUSE): release what the app opened, as close() would.
      await built.close();
      throw error;
    }
  } catch (error) {
    await orm.close();
    throw error;
  }
}

/** The `openDatabase` / `startService` pair a service package exports (used by its tests and the system tests). */
export function serviceEntryPoints<C extends ServiceEnv>(definition: ServiceDefinition<C, object>): {
  openDatabase(databaseUrl: string, logger?: Logger): Promise<MikroORM>;
  startService(config: C, logger?: Logger): Promise<RunningService>;
} {
  return {
    openDatabase: (databaseUrl, logger) => openServiceDatabase(definition, databaseUrl, logger),
    startService: (config, logger) => startService(definition, config, logger),
  };
}
