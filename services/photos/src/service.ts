// Composition root of the photos service: database, domain services, REST routes and the subgraph in one Express app.
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
import { DOCS_PATH, REST_BASE, photosApiDocument } from './api-document.js';
import { createContext, type PhotosContext, type PhotosServices } from './graphql-context.js';
import { migrations } from './migrations/index.js';
import { AccessTokenSchema } from './modules/auth/access-token.entity.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { ProjectSchema } from './modules/projects/project.entity.js';
import { projectResolvers } from './modules/projects/project.resolvers.js';
import { projectRoutes } from './modules/projects/project.routes.js';
import { ProjectService } from './modules/projects/project.service.js';
import { TeamMembershipSchema } from './modules/teams/team-membership.entity.js';
import { TeamSchema } from './modules/teams/team.entity.js';
import { teamResolvers } from './modules/teams/team.resolvers.js';
import { TeamService } from './modules/teams/team.service.js';
import { UserSchema } from './modules/teams/user.entity.js';
import { TemporalReadiness, databaseReadiness } from './readiness.js';

export const SERVICE_NAME = 'photos';
export const photosEnv = serviceEnv;
export type PhotosConfig = z.infer<typeof photosEnv>;

export const entities = [TeamSchema, UserSchema, TeamMembershipSchema, AccessTokenSchema, ProjectSchema, ...webhookEntities];

/** photos' error shape (the spec leaves it open): the kit's `{"error": {code, message, fields?}}` envelope. */
export const photosErrorFormat = envelopeErrorFormat;

export function openDatabase(databaseUrl: string, logger?: Logger): Promise<MikroORM> {
  return createOrm({ clientUrl: databaseUrl, entities, migrations, ...(logger ? { logger } : {}) });
}

export interface PhotosApp {
  app: Express;
  /** Stops the subgraph and the readiness probe's Temporal connection (not the ORM: its owner closes it). */
  close(): Promise<void>;
}

export async function buildApp(opts: { orm: MikroORM; logger: Logger; config: PhotosConfig }): Promise<PhotosApp> {
  const { orm, logger, config } = opts;
  // orm.em resolves to the request's own EntityManager inside a request (RequestContext).
  const services: PhotosServices = {
    auth: new AuthService(orm.em),
    teams: new TeamService(orm.em),
    projects: new ProjectService(orm.em),
  };
  const temporal = new TemporalReadiness(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  let stopSubgraph: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: SERVICE_NAME,
    logger,
    errorFormat: photosErrorFormat,
    bodyLimit: config.BODY_LIMIT,
    orm,
    readiness: [databaseReadiness(orm), temporal],
    configure: async (express) => {
      express.use(authRoutes(services.auth));
      express.use(projectRoutes(services.auth, services.projects));
      mountApiDocs(express, { document: photosApiDocument(), jsonPath: `${REST_BASE}/openapi.json`, docsPath: DOCS_PATH });
      stopSubgraph = await mountSubgraph<PhotosContext>(express, {
        typeDefs: loadTypeDefs(subgraphSdlPath('photos')),
        resolvers: {
          ...teamResolvers,
          ...projectResolvers,
          Query: { ...teamResolvers.Query, ...projectResolvers.Query },
        },
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

export interface RunningPhotosService extends RunningServer {
  orm: MikroORM;
}

/** Starts the HTTP service (REST + /graphql + probes) on config.PORT; close() drains requests, then releases everything. */
export async function startService(config: PhotosConfig, logger: Logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL })): Promise<RunningPhotosService> {
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
