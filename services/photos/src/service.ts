// Composition root of the photos service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers, openWorkflowOutbox, publicBaseUrl, secretBoxFor } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import { photosApiDocument } from './api-document.js';
import { photosEnv, type PhotosConfig } from './config.js';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { PHOTOS_CAPABILITIES } from './capabilities.js';
import { createContext, type PhotosContext, type PhotosServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { AuthService, IntegrationTokenService, SignInService, authEntities, authResolvers, authRoutes } from './modules/auth/index.js';
import { DeviceService, deviceEntities, deviceResolvers, deviceRoutes } from './modules/devices/index.js';
import { BootstrapService, bootstrapRoutes } from './modules/bootstrap/index.js';
import { ProjectService, projectEntities, projectResolvers, projectRoutes } from './modules/projects/index.js';
import { TeamService, teamEntities, teamResolvers } from './modules/teams/index.js';
import { createTeamWebhookEmitter } from './modules/webhooks/index.js';
import { WebhookEndpointService, webhookEndpointEntities, webhookEndpointResolvers, webhookEndpointRoutes } from './modules/webhook-endpoints/index.js';
import { mountRateLimits, openRateLimitStore } from './rate-limits.js';
import { MediaUrlSigner, PhotoService, photoCountSource, photoEntities, photoResolvers, photoRoutes } from './modules/photos/index.js';
import { PhotoGroupService, photoGroupCountSource, photoGroupEntities, photoGroupResolvers, photoGroupRoutes } from './modules/photo-groups/index.js';
import { ReportService, ReportUrlSigner, reportEntities, reportResolvers, reportRoutes, type ReportUrls } from './modules/reports/index.js';
import { CommentService, NotificationService, commentEntities, commentResolvers, commentRoutes } from './modules/comments/index.js';
import { PageService, pageEntities, pageResolvers, pageRoutes } from './modules/pages/index.js';
import { CustomerService, customerEntities, customerResolvers, customerRoutes } from './modules/customers/index.js';
import { PHOTO_UPLOAD_BODY_ROUTE, mediaSigningSecret, uploadLimitsOf } from './media-config.js';
import { ChecklistService, checklistEntities, checklistResolvers, checklistRoutes } from './modules/checklists/index.js';
import { TaskService, taskCountSource, taskEntities, taskResolvers, taskRoutes } from './modules/tasks/index.js';
import { createMediaStorage } from './storage/index.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { photosWorker } from './worker.js';

export { SERVICE_NAME };
export { photosEnv, type PhotosConfig } from './config.js';

export const entities = [...teamEntities, ...authEntities, ...deviceEntities, ...projectEntities, ...photoEntities, ...photoGroupEntities, ...checklistEntities, ...taskEntities, ...reportEntities, ...commentEntities, ...pageEntities, ...customerEntities, ...webhookEndpointEntities, ...kitEntities];

/** photos' error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const photosErrorFormat = envelopeErrorFormat;

export type { ServiceApp as PhotosApp, RunningService as RunningPhotosService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<PhotosConfig>): Promise<ServiceApp> {
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  // Workflow starts (media rendering, webhook deliveries) are committed with their change and dispatched after it.
  const temporal = openWorkflowOutbox({ service: SERVICE_NAME, em: orm.em, config, logger });
  const webhooks = createTeamWebhookEmitter({ outbox: temporal.outbox });
  const mediaUrls = new MediaUrlSigner(mediaSigningSecret(config), publicBaseUrl(config));
  const photoGroups = new PhotoGroupService(orm.em);
  const checklists = new ChecklistService(orm.em, { urls: mediaUrls, events: webhooks });
  const tasks = new TaskService(orm.em, { urls: mediaUrls, events: webhooks });
  // What GET /projects/{project} counts: each module that owns counted records brings its source.
  const projects = new ProjectService(orm.em, { countSources: [photoCountSource(orm.em), photoGroupCountSource(photoGroups), taskCountSource(tasks)], events: webhooks });
  const storage = createMediaStorage(config);
  const reportUrls: ReportUrls = { media: mediaUrls, reports: new ReportUrlSigner(mediaSigningSecret(config), publicBaseUrl(config)) };
  const photos = new PhotoService(orm.em, { storage, limits: uploadLimitsOf(config), projects, outbox: temporal.outbox, announcements: { sink: webhooks, urls: mediaUrls } });
  const services: PhotosServices = {
    auth: new AuthService(orm.em),
    teams: new TeamService(orm.em),
    projects,
    bootstrap: new BootstrapService(projects, { limits: uploadLimitsOf(config), tagSources: [photos], checklistSource: checklists }),
    integrationTokens: new IntegrationTokenService(orm.em),
    devices: new DeviceService(orm.em),
    webhookEndpoints: new WebhookEndpointService(orm.em, { box: secretBoxFor(config), allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS }),
    photos,
    photoGroups,
    checklists,
    tasks,
    pages: new PageService(orm.em, { events: webhooks }),
    customers: new CustomerService(orm.em, { events: webhooks }),
    mediaUrls,
    reports: new ReportService(orm.em, { storage, outbox: temporal.outbox, announcements: { sink: webhooks, urls: reportUrls } }),
    reportUrls: reportUrls.reports,
    comments: new CommentService(orm.em, { events: webhooks }),
    notifications: new NotificationService(orm.em),
  };
  // Rate-limit counters (per token, uploads apart; login): in memory, or in Redis when REDIS_URL is set.
  const rateLimits = await openRateLimitStore(config, logger);
  const built = await composeServiceApp<PhotosContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: photosErrorFormat,
    routes: (express) => {
      // The limits first, so they run before every route (rate-limits.ts).
      mountRateLimits(express, { store: rateLimits, config, logger, auth: services.auth });
      express.use(authRoutes({ auth: services.auth, signIn: new SignInService(orm.em), integrationTokens: services.integrationTokens }));
      express.use(deviceRoutes(services.auth, services.devices));
      express.use(bootstrapRoutes(services.auth, services.bootstrap));
      express.use(projectRoutes(services.auth, services.projects));
      express.use(photoRoutes(services.auth, services.photos, mediaUrls));
      express.use(photoGroupRoutes(services.auth, services.photoGroups, mediaUrls));
      express.use(checklistRoutes(services.auth, checklists, mediaUrls));
      express.use(taskRoutes(services.auth, tasks, mediaUrls));
      express.use(reportRoutes(services.auth, services.reports, reportUrls));
      express.use(commentRoutes(services.auth, services.comments, services.notifications));
      express.use(webhookEndpointRoutes(services.auth, services.webhookEndpoints));
      express.use(pageRoutes(services.auth, services.pages));
      express.use(customerRoutes(services.auth, services.customers));
    },
    otherBodyRoutes: [PHOTO_UPLOAD_BODY_ROUTE],
    apiDocs: { document: photosApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(teamResolvers, projectResolvers, authResolvers, deviceResolvers, photoResolvers, photoGroupResolvers, checklistResolvers, taskResolvers, reportResolvers, commentResolvers, pageResolvers, customerResolvers, webhookEndpointResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
    capabilities: PHOTOS_CAPABILITIES,
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

export const photosService = defineService({
  name: SERVICE_NAME,
  env: photosEnv,
  entities,
  migrations,
  buildApp,
  seed: seedDemoData,
  worker: photosWorker,
});

/** openDatabase(url, logger?) and startService(config, logger?): HTTP service (REST + /graphql + probes) on config.PORT. */
export const { openDatabase, startService } = serviceEntryPoints(photosService);
