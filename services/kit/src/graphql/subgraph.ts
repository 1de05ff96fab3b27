// Each service's Federation 2 subgraph, served from the same Express app as its REST routes, with its GraphiQL page.
import { ApolloServer, type ApolloServerOptions, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { Express, Request } from 'express';
import { readFileSync } from 'node:fs';
import { parse, Source, type DocumentNode } from 'graphql';
import type { GraphqlLimitsConfig } from '../config/index.js';
import { databaseUnavailableError } from '../database/unavailable.js';
import { isDomainError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { graphiqlPage, type GraphiqlPageOptions } from './graphiql-page.js';
import { formatSubgraphError, originalErrorOf, toGraphQLError } from './graphql-errors.js';
import { graphqlLimits } from './limits.js';
import { SUBGRAPH_PATH } from './subgraph-path.js';

export type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';

/** Links a GraphQL context to its HTTP request, so errors can be logged with the request id. */
const httpRequest = Symbol('tributary.httpRequest');

export interface MountSubgraphOptions<TContext extends object> {
  typeDefs: DocumentNode;
  resolvers: GraphQLResolverMap<TContext>;
  /** Builds the per-request context; throw AuthenticationError etc. to refuse the whole operation. */
  context: (req: Request) => Promise<TContext>;
  path?: string;
  /** The same depth, cost, alias, directive and token limits as the gateway's (graphqlLimits). */
  limits: GraphqlLimitsConfig;
  /** Unexpected resolver errors are logged here (with the request id) when no request logger is available. */
  logger?: Logger;
  /** The GraphiQL page browsers get on `GET <path>`; without it they get Apollo's answer to a GET without a query. */
  graphiql?: Omit<GraphiqlPageOptions, 'path'>;
}

/** Mounts `/graphql` (or `path`) and its GraphiQL page on `app`; returns a function that stops the Apollo server. */
export async function mountSubgraph<TContext extends object>(app: Express, options: MountSubgraphOptions<TContext>): Promise<() => Promise<void>> {

  const logUnexpectedErrors: ApolloServerPlugin<BaseContext> = {
    async requestDidStart() {
      return {
        async didEncounterErrors({ contextValue, errors }) {
          for (const error of errors) {
            const original = originalErrorOf(error);
            // Domain errors are expected outcomes; other coded errors (parse, validation) are the client's.
            const code = error.extensions?.code;
            if (isDomainError(original) || (code !== undefined && code !== 'INTERNAL_SERVER_ERROR')) continue;
            const log = (contextValue as { [httpRequest]?: Request })[httpRequest]?.log ?? options.logger;
            log?.error({ err: original, path: error.path }, 'unexpected error in GraphQL resolver');
          }
        },
      };
    },
  };

  const limits = graphqlLimits(options.limits);
  const server = new ApolloServer<BaseContext>({
    schema: buildSubgraphSchema({ typeDefs: options.typeDefs, resolvers: options.resolvers as GraphQLResolverMap<unknown> }),
    ...limits.options,
    formatError: (formatted, error) => limits.formatError(formatSubgraphError(formatted, error)),
    // The gateway and dashboards read the schema; it is public by design (it mirrors the published SDL).
    introspection: true,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // Apollo's default landing page embeds Apollo Sandbox from a CDN; browsers get the self-hosted GraphiQL instead.
    plugins: [...limits.plugins, logUnexpectedErrors, ApolloServerPluginLandingPageDisabled()],
    // Apollo's own messages go to the service log rather than the console.
    ...(options.logger ? { logger: apolloLogger(options.logger) } : {}),
  });
  await server.start();

  const path = options.path ?? SUBGRAPH_PATH;
  if (options.graphiql) app.use(graphiqlPage({ ...options.graphiql, path }));
  // A route, not a prefix mount: `/graphql/` reaches no handler, like every other path's other spellings. Apollo answers
  // every method itself (405 with its own body for those it does not serve).
  const graphql = expressMiddleware(server, {
    context: async ({ req }) => {
      try {
        const context = await options.context(req);
        // Enumerable symbol: survives Apollo's shallow copy of the context, stays out of Object.keys.
        Object.defineProperty(context, httpRequest, { value: req, enumerable: true });
        return context;
      } catch (error) {
        const refusal = isDomainError(error) ? error : databaseUnavailableError(error);
        throw refusal ? toGraphQLError(refusal) : error;
      }
    },
  });
  app.route(path).all(graphql);
  return () => server.stop();
}

type ApolloLogger = NonNullable<ApolloServerOptions<BaseContext>['logger']>;

function apolloLogger(logger: Logger): ApolloLogger {
  const graphqlLogger = logger.child({ component: 'apollo' });
  return {
    debug: (message: unknown) => graphqlLogger.debug(String(message)),
    info: (message: unknown) => graphqlLogger.info(String(message)),
    warn: (message: unknown) => graphqlLogger.warn(String(message)),
    error: (message: unknown) => graphqlLogger.error(String(message)),
  };
}

/** Reads an SDL file (the one schema/ checks in) into a DocumentNode; parse errors name the file. */
export function loadTypeDefs(sdlPath: string): DocumentNode {
  try {
    return parse(new Source(readFileSync(sdlPath, 'utf8'), sdlPath));
  } catch (error) {
    // GraphQLError's toString() includes "<file> (line:column)" and the offending line.
    throw new Error(`Invalid SDL: ${String(error)}`, { cause: error });
  }
}
