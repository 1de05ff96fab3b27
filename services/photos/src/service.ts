// Composition root of the photos service: database, domain services, REST routes and the subgraph in one Express app.
// The kit's runtime (`@tributary/kit/runtime`) turns this definition into the migrate | seed | serve | worker commands.
import { envelopeErrorFormat, kitEntities, loadTypeDefs, mergeResolvers, openWorkflowOutbox } from '@tributary/kit';
import { composeServiceApp, defineService, serviceEntryPoints, type BuildServiceAppOptions, type RunningService, type ServiceApp } from '@tributary/kit/runtime';
import { subgraphSdlPath } from '@tributary/schema';
import { photosApiDocument } from './api-document.js';
import { photosEnv, type PhotosConfig } from './config.js';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { createContext, type PhotosContext, type PhotosServices } from './graphql-context.js';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER, GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
import { migrations } from './migrations/index.js';
import { AuthService, authEntities, authRoutes } from './modules/auth/index.js';
import { ProjectService, projectEntities, projectResolvers, projectRoutes } from './modules/projects/index.js';
import { TeamService, teamEntities, teamResolvers } from './modules/teams/index.js';
import { MediaUrlSigner, PhotoService, photoEntities, photoResolvers, photoRoutes } from './modules/photos/index.js';
import { PhotoGroupService, photoGroupEntities, photoGroupResolvers, photoGroupRoutes } from './modules/photo-groups/index.js';
import { PHOTO_UPLOAD_BODY_ROUTE, mediaSigningSecret, publicBaseUrl, uploadLimitsOf } from './media-config.js';
import { createMediaStorage } from './storage/create-media-storage.js';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME } from './service-name.js';
import { resolveSigningSecret } from './worker.js';

export { SERVICE_NAME };
export { photosEnv, type PhotosConfig } from './config.js';

export const entities = [...teamEntities, ...authEntities, ...projectEntities, ...photoEntities, ...photoGroupEntities, ...kitEntities];

/** photos' error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const photosErrorFormat = envelopeErrorFormat;

export type { ServiceApp as PhotosApp, RunningService as RunningPhotosService };

export async function buildApp({ orm, logger, config }: BuildServiceAppOptions<PhotosConfig>): Promise<ServiceApp> {
  // The media workflow's start is committed with each upload and dispatched after the commit (kit outbox).
  const temporal = openWorkflowOutbox({ em: orm.em, config, logger });
  const mediaUrls = new MediaUrlSigner(mediaSigningSecret(config), publicBaseUrl(config));
  const projects = new ProjectService(orm.em);
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const services: PhotosServices = {
    auth: new AuthService(orm.em),
    teams: new TeamService(orm.em),
    projects,
    photos: new PhotoService(orm.em, { storage: createMediaStorage(config), limits: uploadLimitsOf(config), projects, outbox: temporal.outbox }),
    photoGroups: new PhotoGroupService(orm.em),
    mediaUrls,
  };
  const built = await composeServiceApp<PhotosContext>({
    service: SERVICE_NAME,
    orm,
    logger,
    config,
    errorFormat: photosErrorFormat,
    routes: (express) => {
      express.use(authRoutes(services.auth));
      express.use(projectRoutes(services.auth, services.projects));
      express.use(photoRoutes(services.auth, services.photos, mediaUrls));
      express.use(photoGroupRoutes(services.auth, services.photoGroups, mediaUrls));
    },
    otherBodyRoutes: [PHOTO_UPLOAD_BODY_ROUTE],
    apiDocs: { document: photosApiDocument(), restBase: REST_BASE, docsPath: DOCS_PATH },
    subgraph: {
      typeDefs: loadTypeDefs(subgraphSdlPath(SERVICE_NAME)),
      resolvers: mergeResolvers(teamResolvers, projectResolvers, photoResolvers, photoGroupResolvers),
      context: async (req) => createContext(services, req),
    },
    graphiql: { examples: GRAPHIQL_EXAMPLES, authorizationPlaceholder: GRAPHIQL_AUTHORIZATION_PLACEHOLDER },
  });
  return {
    app: built.app,
    close: async () => {
      await built.close();
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
  worker: { resolveSigningSecret },
});

/** openDatabase(url, logger?) and startService(config, logger?): HTTP service (REST + /graphql + probes) on config.PORT. */
export const { openDatabase, startService } = serviceEntryPoints(photosService);
