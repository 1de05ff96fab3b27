// Composition root of the bnpl service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers, openWorkflowOutbox, publicBaseUrl, secretBoxFor } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import { bnplApiDocument } from './api-document.js';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { BNPL_CAPABILITIES } from './capabilities.js';
import { bnplEnv, smtpUrlOf, type BnplConfig } from './config.js';
import { createContext, type BnplContext, type BnplServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { createSmtpMailer } from './mail/index.js';
import { ApiKeyService, VerifiedApiKeyCache, apiKeyEntities, apiKeyResolvers, apiKeyRoutes } from './modules/api-keys/index.js';
import { CHECKOUT_FORM_BODY_ROUTE, CheckoutService, checkoutRoutes } from './modules/checkout/index.js';
import { LoanService, LoanWorkflowViewer, TestClockService, loanEntities, loanResolvers, testClockResolvers } from './modules/loans/index.js';
import { DashboardLoginService, MerchantAuthService, VerifiedDashboardTokenCache, dashboardLoginRoutes, merchantAuthEntities } from './modules/merchant-auth/index.js';
import { MerchantService, merchantEntities, merchantResolvers } from './modules/merchants/index.js';
import { PAYMENT_LINK_FORM_BODY_ROUTE, PaymentLinkService, paymentLinkEntities, paymentLinkPageRoutes, paymentLinkResolvers, paymentLinkRoutes } from './modules/payment-links/index.js';
import { EnabledPlansCache, PlanService, planEntities, planResolvers, planRoutes } from './modules/plans/index.js';
import { RefundService, refundEntities, refundResolvers, refundRoutes } from './modules/refunds/index.js';
import { SalesService, salesResolvers, salesRoutes } from './modules/sales/index.js';
import { SettlementService, settlementEntities, settlementResolvers, settlementRoutes, testClockSettlementsStart } from './modules/settlements/index.js';
import { WebhookEndpointService, webhookEndpointEntities, webhookEndpointResolvers, webhookEndpointRoutes } from './modules/webhook-endpoints/index.js';
import { WebhookDeliveryService, createLoanWebhookSink, createSettlementWebhookSink, webhookDeliveryResolvers } from './modules/webhooks/index.js';
import { WidgetSessionService, sessionReadLimit, widgetSessionEntities, widgetSessionResolvers, widgetSessionRoutes } from './modules/widget-sessions/index.js';
import { authenticationFailures, mountRateLimits, openRateLimitStore, paymentLinkStartLimits } from './rate-limits.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { bnplWorker } from './worker.js';

export { SERVICE_NAME };
export { bnplEnv, type BnplConfig };

export const entities = [...merchantEntities, ...merchantAuthEntities, ...apiKeyEntities, ...planEntities, ...widgetSessionEntities, ...loanEntities, ...refundEntities, ...settlementEntities, ...paymentLinkEntities, ...webhookEndpointEntities, ...kitEntities];

/** bnpl's error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const bnplErrorFormat = envelopeErrorFormat;

export type { ServiceApp as BnplApp, RunningService as RunningBnplService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<BnplConfig>): Promise<ServiceApp> {
  // Workflow starts and signals (widget session expiry, webhook deliveries) are committed with their change and
  // dispatched after the commit in the background, so a request never waits on Temporal; the worker's sweeper catches up.
  const temporal = openWorkflowOutbox({ service: SERVICE_NAME, em: orm.em, config, logger });
  // Rate-limit counters (login, session polling): in memory, or in Redis when REDIS_URL is set (shared by every instance).
  const rateLimits = await openRateLimitStore(config, logger);
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  // One cache of verified API keys and one of dashboard tokens per process, shared so a revocation or a logout here
  // is forgotten at once.
  const verifiedApiKeys = new VerifiedApiKeyCache();
  const verifiedDashboardTokens = new VerifiedDashboardTokenCache();
  const enabledPlans = new EnabledPlansCache(orm.em);
  const widgetSessions = new WidgetSessionService(orm.em, { outbox: temporal.outbox, enabledPlans });
  const paymentLinks = new PaymentLinkService(orm.em, { publicBaseUrl: publicBaseUrl(config), sessions: widgetSessions, maxOpenSessions: config.BNPL_PAYMENT_LINK_MAX_OPEN_SESSIONS });
  const services: BnplServices = {
    auth: new MerchantAuthService(orm.em, { verifiedApiKeys, verifiedDashboardTokens, failureLimit: authenticationFailures({ store: rateLimits, config, logger }) }),
    merchants: new MerchantService(orm.em),
    apiKeys: new ApiKeyService(orm.em, verifiedApiKeys),
    widgetSessions,
    plans: new PlanService(orm.em, enabledPlans),
    paymentLinks,
    loans: new LoanService(orm.em),
    loanWorkflows: new LoanWorkflowViewer(temporal.client),
    refunds: new RefundService(orm.em, { outbox: temporal.outbox }),
    settlements: new SettlementService(orm.em, { outbox: temporal.outbox, events: createSettlementWebhookSink({ outbox: temporal.outbox }) }),
    testClocks: new TestClockService(orm.em, { outbox: temporal.outbox, advanceStarts: (advance) => [testClockSettlementsStart(advance)] }),
    sales: new SalesService(orm.em),
    webhookEndpoints: new WebhookEndpointService(orm.em, { box: secretBoxFor(config), allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS }),
    webhookDeliveries: new WebhookDeliveryService(orm.em, temporal.outbox),
  };
  // loan.authorized is queued in the booking transaction as one delivery per subscribed endpoint.
  // A loan booked through a payment link counts one of its uses in the same transaction.
  const checkout = new CheckoutService(orm.em, { outbox: temporal.outbox, events: createLoanWebhookSink({ outbox: temporal.outbox }), paymentLinks });
  const mailer = createSmtpMailer({ url: smtpUrlOf(config), from: config.MAIL_FROM });
  const login = new DashboardLoginService(orm.em, { mailer, verifiedDashboardTokens });
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
      const readLimit = sessionReadLimit({ store: rateLimits, config, logger });
      express.use(widgetSessionRoutes({ auth: services.auth, sessions: services.widgetSessions, publicBaseUrl: publicBaseUrl(config), readLimit }));
      express.use(planRoutes(services.auth, services.plans));
      express.use(paymentLinkRoutes(services.auth, services.paymentLinks));
      express.use(refundRoutes(services.auth, services.refunds));
      express.use(settlementRoutes(services.auth, services.settlements));
      express.use(salesRoutes(services.auth, services.sales, { config }));
      express.use(webhookEndpointRoutes(services.auth, services.webhookEndpoints));
      express.use(checkoutRoutes(checkout));
      express.use(paymentLinkPageRoutes(paymentLinks, paymentLinkStartLimits({ store: rateLimits, config, logger })));
    },
    otherBodyRoutes: [CHECKOUT_FORM_BODY_ROUTE, PAYMENT_LINK_FORM_BODY_ROUTE],
    apiDocs: { document: bnplApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(merchantResolvers, apiKeyResolvers, widgetSessionResolvers, planResolvers, paymentLinkResolvers, loanResolvers, salesResolvers, refundResolvers, settlementResolvers, testClockResolvers, webhookEndpointResolvers, webhookDeliveryResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
    capabilities: BNPL_CAPABILITIES,
  });
  return {
    app: built.app,
    close: async () => {
      await built.close();
      await rateLimits.close();
      mailer.close();
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
