// The federated gateway: @apollo/gateway over schema/'s supergraph, served by Apollo Server 5 on Express 5, with
// per-subgraph credential forwarding, the kit's query limits (the same as every subgraph's) and a self-hosted GraphiQL
// page for browsers.
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import {
  createLogger,
  createServiceApp,
  envelopeErrorFormat,
  graphiqlDemoAuthorization,
  graphiqlPage,
  graphqlLimits,
  startHttpServer,
  SUBGRAPH_PATH,
  type Logger,
  type ReadinessCheck,
  type RunningServer,
} from '@tributary/kit';
import { readSupergraphSdl } from '@tributary/schema';
import { SERVICE_NAMES, type ServiceName } from '@tributary/workflows';
import type { Express } from 'express';
import type { GatewayConfig } from './config.js';
import { credentialsFromClient } from './credentials.js';
import { CredentialForwardingDataSource, type GatewayContext } from './data-source.js';
import { GATEWAY_GRAPHIQL_EXAMPLES, graphiqlHeaders } from './graphiql.js';

export function subgraphUrls(config: GatewayConfig): Record<ServiceName, string> {
  return { bnpl: config.BNPL_SUBGRAPH_URL, crypto: config.CRYPTO_SUBGRAPH_URL, photos: config.PHOTOS_SUBGRAPH_URL };
}

/** /readyz: every subgraph's own /readyz answers 200. */
export function subgraphReadiness(urls: Record<ServiceName, string>): ReadinessCheck[] {
  return SERVICE_NAMES.map((name) => ({
    name,
    check: async () => {
      const res = await fetch(new URL('/readyz', urls[name]), { signal: AbortSignal.timeout(1_500) });
      await res.body?.cancel();
      if (res.status !== 200) throw new Error(`${name} /readyz answered ${res.status}`);
    },
  }));
}

export interface GatewayApp {
  app: Express;
  close(): Promise<void>;
}

export async function buildGatewayApp(config: GatewayConfig, logger: Logger): Promise<GatewayApp> {
  const urls = subgraphUrls(config);
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraphSdl(config.SUPERGRAPH_PATH),
    buildService: ({ name }) => {
      if (!(SERVICE_NAMES as readonly string[]).includes(name)) throw new Error(`Supergraph names an unknown subgraph "${name}"`);
      return new CredentialForwardingDataSource(name as ServiceName, urls[name as ServiceName]);
    },
  });
  const limits = graphqlLimits(config);
  const server = new ApolloServer<GatewayContext>({
    gateway,
    ...limits.options,
    // Apollo's default landing page embeds Apollo Sandbox from a CDN; browsers get the self-hosted GraphiQL instead.
    plugins: [...(limits.plugins as ApolloServerPlugin<GatewayContext>[]), ApolloServerPluginLandingPageDisabled()],
    formatError: limits.formatError,
    introspection: true,
    csrfPrevention: true,
    logger: { debug: (m) => logger.debug(m), info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
  });
  await server.start();
  const app = await createServiceApp({
    service: 'gateway',
    logger,
    errorFormat: envelopeErrorFormat,
    readiness: subgraphReadiness(urls),
    metricsToken: config.METRICS_TOKEN,
    configure: (express) => {
      express.use(
        graphiqlPage({
          title: 'Tributary gateway · GraphiQL',
          headers: graphiqlHeaders(graphiqlDemoAuthorization(config, logger)),
          examples: GATEWAY_GRAPHIQL_EXAMPLES,
        }),
      );
      const graphql = expressMiddleware(server, {
        context: async ({ req, res }) => ({
          credentials: credentialsFromClient(req.headers),
          // The kit's request id (echoed as X-Request-Id) follows the request into every subgraph's logs.
          requestId: String(res.getHeader('x-request-id') ?? ''),
        }),
      });
      // A route, not a prefix mount: `/graphql/` reaches no handler; Apollo answers every method itself.
      express.route(SUBGRAPH_PATH).all(graphql);
    },
  });
  return { app, close: () => server.stop() };
}

export async function startGateway(config: GatewayConfig, logger: Logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL })): Promise<RunningServer> {
  const built = await buildGatewayApp(config, logger);
  return startHttpServer(built.app, {
    port: config.PORT,
    host: config.HOST,
    logger,
    graceMs: config.SHUTDOWN_GRACE_MS,
    onClose: [built.close],
  });
}
