// Composition root of the crypto service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import type { EntityManager } from '@mikro-orm/postgresql';
import { kitEntities, loadTypeDefs, messageErrorFormat, openWorkflowOutbox, pathGuard, type WorkflowOutbox } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import type { z } from 'zod';
import { DOCS_PATH, MERCHANT_API_PREFIX, PUBLIC_API_PREFIX } from './api-paths.js';
import { CRYPTO_CAPABILITIES } from './capabilities.js';
import { cryptoApiDocument } from './api-document.js';
import { cryptoEnv } from './config.js';
import { ChainWatchHealth, chainWatchEntities, watchedChains } from './modules/chain-watch/index.js';
import { createContext, type CryptoContext, type CryptoServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { AccountService, accountEntities, accountRoutes } from './modules/accounts/index.js';
import { assetEntities } from './modules/assets/index.js';
import { hostedPageRoutes } from './modules/hosted-page/index.js';
import { PaymentRequestService, paymentRequestEntities, paymentRequestRoutes } from './modules/payment-requests/index.js';
import { PaymentService, paymentEntities } from './modules/payments/index.js';
import { ReceiveAddressGapService, receiveAddressEntities } from './modules/receive-addresses/index.js';
import { WebhookDeliveryService, createPaymentWebhookSink } from './modules/webhooks/index.js';
import { publicApiCors } from './public-api-cors.js';
import { mountRateLimits, openRateLimitStore } from './rate-limits.js';
import { cryptoResolvers } from './resolvers.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { cryptoWorker } from './worker.js';

export { SERVICE_NAME, cryptoEnv };
export type CryptoConfig = z.infer<typeof cryptoEnv>;

export const entities = [...accountEntities, ...assetEntities, ...receiveAddressEntities, ...paymentRequestEntities, ...paymentEntities, ...chainWatchEntities, ...kitEntities];

/** The crypto spec's error shape `{message, errors?}`, with its fixed 401 and 404 messages. */
export const cryptoErrorFormat = messageErrorFormat({ authentication: 'Invalid API credentials.', not_found: 'Not found.' });

export type { ServiceApp as CryptoApp, RunningService as RunningCryptoService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<CryptoConfig>): Promise<ServiceApp> {
  // Workflow starts and signals (invoice expiry, webhook deliveries) are committed with their change and dispatched
  // after the commit in the background, so a request never waits on Temporal; the worker's sweeper catches up.
  const temporal = openWorkflowOutbox({ service: SERVICE_NAME, em: orm.em, config, logger });
  const services = domainServices(orm.em, config, temporal.outbox);
  const rateLimits = await openRateLimitStore(config, logger);
  const built = await composeServiceApp<CryptoContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: cryptoErrorFormat,
    routes: (express) => {
      // CORS of the public payer endpoint first, so its 404/429 answers and preflights carry the headers.
      express.use(pathGuard(PUBLIC_API_PREFIX, publicApiCors()));
      // Then the limits, so they cover every route under their prefixes (rate-limits.ts).
      mountRateLimits(express, { store: rateLimits, config, logger, accounts: services.accounts });
      express.use(accountRoutes(services.accounts));
      express.use(paymentRequestRoutes(services.accounts, services.paymentRequests));
      express.use(hostedPageRoutes(services.paymentRequests));
    },
    apiDocs: { document: cryptoApiDocument(), restBase: MERCHANT_API_PREFIX, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: cryptoResolvers,
      context: async (req) => createContext(req, services),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
    capabilities: CRYPTO_CAPABILITIES,
    // A chain node that is down degrades the gateway (payments on that chain wait) but it still takes requests.
    readiness: services.chainWatchers.readinessChecks(),
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

/**
 * The domain services of the HTTP process, shared by REST and GraphQL. They are built on orm.em, which resolves to the
 * request's own EntityManager inside a request (RequestContext).
 */
function domainServices(em: EntityManager, config: CryptoConfig, outbox: WorkflowOutbox): CryptoServices {
  // Events of this process's state changes become webhook deliveries, dispatched after their commit.
  const events = createPaymentWebhookSink({ outbox });
  return {
    accounts: new AccountService(em),
    paymentRequests: new PaymentRequestService(em, { allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS, events, outbox, network: config.CRYPTO_NETWORK }),
    // Reads only here (GraphQL PaymentRequest.payments); payments are recorded by the operator command or a watcher.
    payments: new PaymentService(em, { events, outbox, network: config.CRYPTO_NETWORK }),
    webhookDeliveries: new WebhookDeliveryService(em, outbox),
    chainWatchers: new ChainWatchHealth(em, {
      chains: watchedChains(config).map(({ chain }) => chain),
      network: config.CRYPTO_NETWORK,
      pollIntervalMs: config.CRYPTO_CHAIN_POLL_INTERVAL_MS,
    }),
    receiveAddressGaps: new ReceiveAddressGapService(em, config.CRYPTO_GAP_LIMIT),
  };
}

export const cryptoService = defineService({
  name: SERVICE_NAME,
  env: cryptoEnv,
  entities,
  migrations,
  buildApp,
  seed: seedDemoData,
  worker: cryptoWorker,
});

/** openDatabase(url, logger?) and startService(config, logger?): HTTP service (REST + /graphql + probes) on config.PORT. */
export const { openDatabase, startService } = serviceEntryPoints(cryptoService);
