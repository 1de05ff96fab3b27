// Composition root of the bnpl service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers, serviceEnv } from '@tributary/kit';
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
import { PaymentLinkService, paymentLinkEntities, paymentLinkResolvers, paymentLinkRoutes } from './modules/payment-links/index.js';
import { planEntities } from './modules/plans/index.js';
import { widgetSessionEntities } from './modules/widget-sessions/index.js';
import { seedDemoData } from './seed.js';
import { publicBaseUrl } from './public-url.js';
import { SERVICE_NAME } from './service-name.js';
import { resolveSigningSecret } from './worker.js';

export { SERVICE_NAME };
export const bnplEnv = serviceEnv;
export type BnplConfig = z.infer<typeof bnplEnv>;

export const entities = [...merchantEntities, ...merchantAuthEntities, ...apiKeyEntities, ...planEntities, ...widgetSessionEntities, ...loanEntities, ...paymentLinkEntities, ...kitEntities];

/** bnpl's error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const bnplErrorFormat = envelopeErrorFormat;

export type { ServiceApp as BnplApp, RunningService as RunningBnplService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<BnplConfig>): Promise<ServiceApp> {
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const services: BnplServices = {
    auth: new MerchantAuthService(orm.em),
    merchants: new MerchantService(orm.em),
    apiKeys: new ApiKeyService(orm.em),
    paymentLinks: new PaymentLinkService(orm.em, publicBaseUrl(config)),
  };
  return composeServiceApp<BnplContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: bnplErrorFormat,
    routes: (express) => {
      express.use(apiKeyRoutes(services.auth, services.apiKeys));
      express.use(paymentLinkRoutes(services.auth, services.paymentLinks));
    },
    apiDocs: { document: bnplApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(merchantResolvers, paymentLinkResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
  });
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
