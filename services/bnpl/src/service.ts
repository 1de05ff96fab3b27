// Composition root of the bnpl service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import { bnplApiDocument } from './api-document.js';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { bnplEnv, smtpUrlOf, type BnplConfig } from './config.js';
import { createContext, type BnplContext, type BnplServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { createSmtpMailer } from './mail/index.js';
import { ApiKeyService, VerifiedApiKeyCache, apiKeyEntities, apiKeyRoutes } from './modules/api-keys/index.js';
import { DashboardLoginService, MerchantAuthService, dashboardLoginRoutes, merchantAuthEntities } from './modules/merchant-auth/index.js';
import { MerchantService, merchantEntities, merchantResolvers } from './modules/merchants/index.js';
import { mountRateLimits, openRateLimitStore } from './rate-limits.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { resolveSigningSecret } from './worker.js';

export { SERVICE_NAME };
export { bnplEnv, type BnplConfig };

export const entities = [...merchantEntities, ...merchantAuthEntities, ...apiKeyEntities, ...kitEntities];

/** bnpl's error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const bnplErrorFormat = envelopeErrorFormat;

export type { ServiceApp as BnplApp, RunningService as RunningBnplService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<BnplConfig>): Promise<ServiceApp> {
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  // One cache of verified API keys per process, shared so a revocation here is forgotten at once.
  const verifiedApiKeys = new VerifiedApiKeyCache();
  const services: BnplServices = {
    auth: new MerchantAuthService(orm.em, { verifiedApiKeys }),
    merchants: new MerchantService(orm.em),
    apiKeys: new ApiKeyService(orm.em, verifiedApiKeys),
  };
  const mailer = createSmtpMailer({ url: smtpUrlOf(config), from: config.MAIL_FROM });
  const login = new DashboardLoginService(orm.em, { mailer });
  const rateLimits = await openRateLimitStore(config, logger);
  const built = await composeServiceApp<BnplContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: bnplErrorFormat,
    routes: (express) => {
      // The login limits first, so they run before the login routes (rate-limits.ts).
      mountRateLimits(express, { store: rateLimits, config, logger });
      express.use(dashboardLoginRoutes(services.auth, login));
      express.use(apiKeyRoutes(services.auth, services.apiKeys));
    },
    apiDocs: { document: bnplApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(merchantResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
  });
  return {
    app: built.app,
    close: async () => {
      await built.close();
      await rateLimits.close();
      mailer.close();
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
  worker: { resolveSigningSecret },
});

/** openDatabase(url, logger?) and startService(config, logger?): HTTP service (REST + /graphql + probes) on config.PORT. */
export const { openDatabase, startService } = serviceEntryPoints(bnplService);
