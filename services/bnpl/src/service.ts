// Composition root of the bnpl service: database, domain services, REST routes and the subgraph in one Express app.
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  createLogger,
  createOrm,
  createServiceApp,
  envelopeErrorFormat,
  loadTypeDefs,
  mountApiDocs,
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
import { DOCS_PATH, REST_BASE, bnplApiDocument } from './api-document.js';
import { createContext, type BnplContext, type BnplServices } from './graphql-context.js';
import { migrations } from './migrations/index.js';
import { ApiKeySchema } from './modules/api-keys/api-key.entity.js';
import { apiKeyRoutes } from './modules/api-keys/api-key.routes.js';
import { ApiKeyService } from './modules/api-keys/api-key.service.js';
import { MerchantAuthService } from './modules/dashboard-auth/dashboard-auth.service.js';
import { DashboardTokenSchema } from './modules/dashboard-auth/dashboard-token.entity.js';
import { MerchantUserSchema } from './modules/merchants/merchant-user.entity.js';
import { MerchantSchema } from './modules/merchants/merchant.entity.js';
import { merchantResolvers } from './modules/merchants/merchant.resolvers.js';
import { MerchantService } from './modules/merchants/merchant.service.js';
import { TemporalReadiness, databaseReadiness } from './readiness.js';

export const SERVICE_NAME = 'bnpl';
export const bnplEnv = serviceEnv;
export type BnplConfig = z.infer<typeof bnplEnv>;

export const entities = [MerchantSchema, MerchantUserSchema, DashboardTokenSchema, ApiKeySchema, ...webhookEntities];

/** bnpl's error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const bnplErrorFormat = envelopeErrorFormat;

export function openDatabase(databaseUrl: string, logger?: Logger): Promise<MikroORM> {
  return createOrm({ clientUrl: databaseUrl, entities, migrations, ...(logger ? { logger } : {}) });
}

export interface BnplApp {
  app: Express;
  /** Stops the subgraph and the readiness probe's Temporal connection (not the ORM: its owner closes it). */
  close(): Promise<void>;
}

export async function buildApp(opts: { orm: MikroORM; logger: Logger; config: BnplConfig }): Promise<BnplApp> {
  const { orm, logger, config } = opts;
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const services: BnplServices = {
    auth: new MerchantAuthService(orm.em),
    merchants: new MerchantService(orm.em),
    apiKeys: new ApiKeyService(orm.em),
  };
  const temporal = new TemporalReadiness(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  let stopSubgraph: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: SERVICE_NAME,
    logger,
    errorFormat: bnplErrorFormat,
    bodyLimit: config.BODY_LIMIT,
    orm,
    readiness: [databaseReadiness(orm), temporal],
    configure: async (express) => {
      express.use(apiKeyRoutes(services.auth, services.apiKeys));
      mountApiDocs(express, { document: bnplApiDocument(), jsonPath: `${REST_BASE}/openapi.json`, docsPath: DOCS_PATH });
      stopSubgraph = await mountSubgraph<BnplContext>(express, {
        typeDefs: loadTypeDefs(subgraphSdlPath('bnpl')),
        resolvers: merchantResolvers,
        context: async (req) => createContext(services, req),
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

export interface RunningBnplService extends RunningServer {
  orm: MikroORM;
}

/** Starts the HTTP service (REST + /graphql + probes) on config.PORT; close() drains requests, then releases everything. */
export async function startService(config: BnplConfig, logger: Logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL })): Promise<RunningBnplService> {
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
