// Composition root of the crypto service: database, domain services, REST routes and the subgraph in one Express app.
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  createLogger,
  createOrm,
  createServiceApp,
  loadTypeDefs,
  mountApiDocs,
  messageErrorFormat,
  mountSubgraph,
  serviceEnv,
  startHttpServer,
  type Logger,
  type RunningServer,
  webhookEntities,
} from '@tributary/kit';
import { subgraphSdlPath } from '@tributary/schema';
import type { Express } from 'express';
import type { z } from 'zod';
import { DOCS_PATH, REST_BASE, cryptoApiDocument } from './api-document.js';
import { createContext, type CryptoContext } from './graphql-context.js';
import { migrations } from './migrations/index.js';
import { AccountSchema } from './modules/accounts/account.entity.js';
import { accountResolvers } from './modules/accounts/account.resolvers.js';
import { accountRoutes } from './modules/accounts/account.routes.js';
import { AccountService } from './modules/accounts/account.service.js';
import { ApiKeySchema } from './modules/accounts/api-key.entity.js';
import { TemporalReadiness, databaseReadiness } from './readiness.js';

export const SERVICE_NAME = 'crypto';
export const cryptoEnv = serviceEnv;
export type CryptoConfig = z.infer<typeof cryptoEnv>;

export const entities = [AccountSchema, ApiKeySchema, ...webhookEntities];

/** The crypto spec's error shape `{message, errors?}`, with its fixed 401 and 404 messages. */
export const cryptoErrorFormat = messageErrorFormat({ authentication: 'Invalid API credentials.', not_found: 'Not found.' });

export function openDatabase(databaseUrl: string, logger?: Logger): Promise<MikroORM> {
  return createOrm({ clientUrl: databaseUrl, entities, migrations, ...(logger ? { logger } : {}) });
}

export interface CryptoApp {
  app: Express;
  /** Stops the subgraph and the readiness probe's Temporal connection (not the ORM: its owner closes it). */
  close(): Promise<void>;
}

export async function buildApp(opts: { orm: MikroORM; logger: Logger; config: CryptoConfig }): Promise<CryptoApp> {
  const { orm, logger, config } = opts;
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const accounts = new AccountService(orm.em);
  const temporal = new TemporalReadiness(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  let stopSubgraph: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: SERVICE_NAME,
    logger,
    errorFormat: cryptoErrorFormat,
    bodyLimit: config.BODY_LIMIT,
    orm,
    readiness: [databaseReadiness(orm), temporal],
    configure: async (express) => {
      express.use(accountRoutes(() => accounts));
      mountApiDocs(express, { document: cryptoApiDocument(), jsonPath: `${REST_BASE}/openapi.json`, docsPath: DOCS_PATH });
      stopSubgraph = await mountSubgraph<CryptoContext>(express, {
        typeDefs: loadTypeDefs(subgraphSdlPath('crypto')),
        resolvers: accountResolvers,
        context: async (req) => createContext(accounts, req),
        logger,
      });
    },
  });
  return {
    app,
    close: async () => {
      await stopSubgraph();
      await temporal.close();
    },
  };
}

export interface RunningCryptoService extends RunningServer {
  orm: MikroORM;
}

/** Starts the HTTP service (REST + /graphql + probes) on config.PORT; close() drains requests, then releases everything. */
export async function startService(config: CryptoConfig, logger: Logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL })): Promise<RunningCryptoService> {
  const orm = await openDatabase(config.DATABASE_URL, logger);
  try {
    const built = await buildApp({ orm, logger, config });
    const server = await startHttpServer(built.app, {
      port: config.PORT,
      host: config.HOST,
      logger,
      graceMs: config.SHUTDOWN_GRACE_MS,
      onClose: [built.close, () => orm.close()],
    });
    return Object.assign(server, { orm });
  } catch (error) {
    await orm.close();
    throw error;
  }
}
