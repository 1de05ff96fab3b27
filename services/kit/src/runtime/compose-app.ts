// The part of every service's composition root that is the same: the kit's Express app with database and Temporal
// readiness, the service's REST routes, its OpenAPI document and docs page, and its subgraph on /graphql with its
// GraphiQL page.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import type { GraphqlLimitsConfig, ServiceEnv } from '../config/index.js';
import { databaseReadiness } from '../database/index.js';
import type { ErrorFormat } from '../errors/index.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlDemoAuthorization, mountSubgraph, type GraphiqlExample, type MountSubgraphOptions } from '../graphql/index.js';
import { apiDocsAssetsPath, createServiceApp, mountApiDocs, temporalReadiness, type CapabilityToken, type OtherBodyRoute, type ReadinessCheck } from '../http/index.js';
import type { Logger } from '../logging/index.js';
import type { ServiceApp } from './definition.js';

export interface ComposeServiceAppOptions<TContext extends object> {
  service: string;
  orm: MikroORM;
  logger: Logger;
  config: Pick<ServiceEnv, 'BODY_LIMIT' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'NODE_ENV' | 'GRAPHIQL_DEMO_AUTHORIZATION' | 'METRICS_TOKEN' | 'REQUEST_DEADLINE_MS'> & GraphqlLimitsConfig;
  errorFormat: ErrorFormat;
  /** Mounts the service's REST routers. */
  routes(app: Express): void;
  /** Routes that read a non-JSON body themselves (e.g. an HTML form posting urlencoded fields). */
  otherBodyRoutes?: OtherBodyRoute[];
  /** The OpenAPI document, served at `${restBase}/openapi.json`, and the docs page at `docsPath`. */
  apiDocs: { document: object; restBase: string; docsPath: string };
  /** The subgraph (its logger is the app's). */
  subgraph: Omit<MountSubgraphOptions<TContext>, 'logger' | 'graphiql' | 'limits'>;
  /**
   * The subgraph's GraphiQL page: its example tabs, and what its headers editor shows for `Authorization` when
   * GRAPHIQL_DEMO_AUTHORIZATION has no demo value for the service (e.g. `Bearer <access token>`).
   */
  graphiql: { examples: readonly GraphiqlExample[]; authorizationPlaceholder: string };
  /** The service's own readiness checks, after the database and Temporal (e.g. crypto's chain watchers, informational). */
  readiness?: ReadinessCheck[];
  /** Capability tokens in the service's paths, shortened in its access log and traces. */
  capabilities?: readonly CapabilityToken[];
}

/** Prefixes of the static files a service app serves (docs page, GraphiQL page): not API surface. */
export function staticAssetPrefixes(docsPath: string): string[] {
  return [apiDocsAssetsPath(docsPath), GRAPHIQL_ASSETS_PATH];
}

export async function composeServiceApp<TContext extends object>(options: ComposeServiceAppOptions<TContext>): Promise<ServiceApp> {
  const { orm, logger, config } = options;
  const temporal = temporalReadiness({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  let stopSubgraph: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: options.service,
    logger,
    errorFormat: options.errorFormat,
    bodyLimit: config.BODY_LIMIT,
    orm,
    readiness: [databaseReadiness(orm), temporal, ...(options.readiness ?? [])],
    otherBodyRoutes: options.otherBodyRoutes,
    metricsToken: config.METRICS_TOKEN,
    capabilities: options.capabilities,
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    configure: async (express) => {
      options.routes(express);
      const { document, restBase, docsPath } = options.apiDocs;
      mountApiDocs(express, { document, jsonPath: `${restBase}/openapi.json`, docsPath });
      const demo = graphiqlDemoAuthorization(config, logger)[options.service];
      stopSubgraph = await mountSubgraph<TContext>(express, {
        ...options.subgraph,
        limits: config,
        logger,
        graphiql: {
          title: `${options.service} subgraph · GraphiQL`,
          headers: { Authorization: demo ?? options.graphiql.authorizationPlaceholder },
          examples: options.graphiql.examples,
        },
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
