// Composition root of the bnpl service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { createRateLimitStore, envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers, openWorkflowOutbox, rateLimitEnv, serviceEnv } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import type { z } from 'zod';
import { bnplApiDocument } from './api-document.js';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { createContext, type BnplContext, type BnplServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { ApiKeyService, apiKeyEntities, apiKeyRoutes } from './modules/api-keys/index.js';
import { MerchantAuthService, merchantAuthEntities } from './modules/merchant-auth/index.js';
import { loanEntities } from './modules/loans/index.js';
import { MerchantService, merchantEntities, merchantResolvers } from './modules/merchants/index.js';
import { PlanService, planEntities, planResolvers, planRoutes } from './modules/plans/index.js';
import { WidgetSessionService, sessionReadLimit, sessionReadLimitFields, widgetSessionEntities, widgetSessionResolvers, widgetSessionRoutes } from './modules/widget-sessions/index.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { bnplWorker } from './worker.js';

export { SERVICE_NAME };
/** `serve`: serviceEnv + the rate limits' store (REDIS_URL, RATE_LIMIT_REDIS_PREFIX) + the session read limit's numbers. */
export const bnplEnv = serviceEnv.extend({ ...rateLimitEnv.pick({ REDIS_URL: true, RATE_LIMIT_REDIS_PREFIX: true }).shape, ...sessionReadLimitFields });
export type BnplConfig = z.infer<typeof bnplEnv>;

export const entities = [...merchantEntities, ...merchantAuthEntities, ...apiKeyEntities, ...planEntities, ...widgetSessionEntities, ...loanEntities, ...kitEntities];

/** bnpl's error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const bnplErrorFormat = envelopeErrorFormat;

export type { ServiceApp as BnplApp, RunningService as RunningBnplService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<BnplConfig>): Promise<ServiceApp> {
  // Workflow starts and signals (widget session expiry) are committed with their change and dispatched after the
  // commit in the background, so a request never waits on Temporal; the worker's sweeper catches up.
  const temporal = openWorkflowOutbox({ em: orm.em, config, logger });
  // Rate-limit counters: in memory, or in Redis when REDIS_URL is set (shared by every instance).
  const rateLimits = createRateLimitStore({ service: SERVICE_NAME, logger, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await rateLimits.ready();
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const services: BnplServices = {
    auth: new MerchantAuthService(orm.em),
    merchants: new MerchantService(orm.em),
    apiKeys: new ApiKeyService(orm.em),
    widgetSessions: new WidgetSessionService(orm.em, { outbox: temporal.outbox }),
    plans: new PlanService(orm.em),
  };
  const built = await composeServiceApp<BnplContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: bnplErrorFormat,
    routes: (express) => {
      express.use(apiKeyRoutes(services.auth, services.apiKeys));
      const readLimit = sessionReadLimit({ store: rateLimits, config, logger });
      express.use(widgetSessionRoutes({ auth: services.auth, em: orm.em, sessions: services.widgetSessions, publicBaseUrl: config.PUBLIC_BASE_URL, readLimit }));
      express.use(planRoutes(services.auth, services.plans));
    },
    apiDocs: { document: bnplApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(merchantResolvers, widgetSessionResolvers, planResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
  });
  return {
    app: built.app,
    close: async () => {
      await built.close();
      await rateLimits.close();
      await temporal.close();
    },
  };
}

export const bnplService = defineService({
  name: SERVICE_NAME,
  env: bnplEnv,
  entities,
  migrations,
  buildApp,
  seed: seedDemoData,
  worker: bnplWorker,
});

/** openDatabase(url, logger?) and startService(config, logger?): HTTP service (REST + /graphql + probes) on config.PORT. */
export const { openDatabase, startService } = serviceEntryPoints(bnplService);
