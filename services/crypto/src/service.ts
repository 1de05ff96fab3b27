// Composition root of the crypto service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { Client, Connection } from '@temporalio/client';
import { createWebhookDispatcher, loadTypeDefs, messageErrorFormat, underPathPrefix, webhookEntities } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import type { z } from 'zod';
import { cryptoEnv } from './config.js';
import { DOCS_PATH, REST_BASE, cryptoApiDocument } from './api-document.js';
import { createContext, type CryptoContext } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { AccountSchema } from './modules/accounts/account.entity.js';
import { accountRoutes } from './modules/accounts/account.routes.js';
import { AccountService } from './modules/accounts/account.service.js';
import { ApiKeySchema } from './modules/accounts/api-key.entity.js';
import { AssetSchema } from './modules/assets/index.js';
import { receiveAddressEntities } from './modules/receive-addresses/index.js';
import { PaymentRequestService, paymentRequestEntities, paymentRequestRoutes } from './modules/payment-requests/index.js';
import { hostedPageRoutes } from './modules/hosted-page/index.js';
import { createTemporalInvoiceScheduler } from './modules/invoice-workflow/index.js';
import { PaymentService, paymentEntities } from './modules/payments/index.js';
import { WEBHOOK_SERVICE, WebhookDeliveryService, createPaymentWebhookSink } from './modules/webhooks/index.js';
import { cryptoResolvers } from './resolvers.js';
import { publicApiCors } from './public-api-cors.js';
import { PUBLIC_API_PREFIX, mountRateLimits, openRateLimitStore } from './rate-limits.js';
import { seedDemoData } from './seed.js';
import { cryptoWorker } from './worker.js';

export const SERVICE_NAME = 'crypto';
export { cryptoEnv };
export type CryptoConfig = z.infer<typeof cryptoEnv>;

export const entities = [AccountSchema, ApiKeySchema, AssetSchema, ...receiveAddressEntities, ...paymentRequestEntities, ...paymentEntities, ...webhookEntities];

/** The crypto spec's error shape `{message, errors?}`, with its fixed 401 and 404 messages. */
export const cryptoErrorFormat = messageErrorFormat({ authentication: 'Invalid API credentials.', not_found: 'Not found.' });

export type { ServiceApp as CryptoApp, RunningService as RunningCryptoService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<CryptoConfig>): Promise<ServiceApp> {
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const accounts = new AccountService(orm.em);
  // Invoice expiry workflows are started (create) and signalled (cancel) after commit; connects on first use.
  const temporal = Connection.lazy({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection: temporal, namespace: config.TEMPORAL_NAMESPACE });
  const scheduler = createTemporalInvoiceScheduler({ client, logger });
  // Webhook deliveries queued by this process (a dashboard re-send) start right after their commit; if Temporal is
  // unreachable then, the worker's sweeper starts them.
  const webhookDispatcher = createWebhookDispatcher({ service: WEBHOOK_SERVICE, em: orm.em, client, logger });
  // Events of this process's state changes become queued webhook deliveries, started after commit by the dispatcher.
  const paymentRequests = new PaymentRequestService(orm.em, { allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS, events: createPaymentWebhookSink({ logger, dispatcher: webhookDispatcher }), scheduler });
  const webhookDeliveries = new WebhookDeliveryService(orm.em, webhookDispatcher);
  // Reads only here (GraphQL PaymentRequest.payments); payments are recorded by the operator command or a watcher.
  const payments = new PaymentService(orm.em);
  const rateLimits = await openRateLimitStore(config, logger);
  const built = await composeServiceApp<CryptoContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: cryptoErrorFormat,
    routes: (express) => {
      // CORS of the public payer endpoint first, so its 404/429 answers and preflights carry the headers.
      express.use(underPathPrefix(PUBLIC_API_PREFIX, publicApiCors()));
      // Then the limits, so they cover every route under their prefixes (rate-limits.ts).
      mountRateLimits(express, { store: rateLimits, config, logger, accounts: () => accounts });
      express.use(accountRoutes(() => accounts));
      express.use(paymentRequestRoutes(() => accounts, () => paymentRequests));
      express.use(hostedPageRoutes(() => paymentRequests));
    },
    apiDocs: { document: cryptoApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath('crypto')),
      resolvers: cryptoResolvers,
      context: async (req) => createContext(req, { accounts, paymentRequests, payments, webhookDeliveries }),
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
