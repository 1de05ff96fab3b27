import { envInteger, envUrl, graphiqlDemoAuthorizationEnv, graphqlLimitFields, logLevels, metricsTokenEnv } from '@tributary/kit';
import { DEFAULT_SUBGRAPH_URLS } from '@tributary/schema';
import { z } from 'zod';

const subgraphUrl = (name: keyof typeof DEFAULT_SUBGRAPH_URLS) =>
  envUrl(['http:', 'https:'], 'an http(s) URL of the subgraph endpoint').default(DEFAULT_SUBGRAPH_URLS[name]);

export const gatewayEnv = z.object({
  PORT: envInteger(1, 65_535).default(4000),
  HOST: z.string().trim().default('127.0.0.1'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  BNPL_SUBGRAPH_URL: subgraphUrl('bnpl'),
  CRYPTO_SUBGRAPH_URL: subgraphUrl('crypto'),
  PHOTOS_SUBGRAPH_URL: subgraphUrl('photos'),
  /** Defaults to the supergraph checked in under schema/. */
  SUPERGRAPH_PATH: z.string().trim().min(1).optional(),
  /** GRAPHQL_MAX_DEPTH, _COST, _ALIASES, _TOKENS, _DIRECTIVES: the kit's, which every subgraph applies too. */
  ...graphqlLimitFields,
  SHUTDOWN_GRACE_MS: envInteger(0, 600_000).default(10_000),
  /** `production` ignores GRAPHIQL_DEMO_AUTHORIZATION. */
  NODE_ENV: z.string().trim().optional(),
  /** Demo credentials the GraphiQL page pre-fills (set by `npm start`); see the kit's graphiqlDemoAuthorizationEnv. */
  GRAPHIQL_DEMO_AUTHORIZATION: graphiqlDemoAuthorizationEnv.optional(),
  /** Bearer token GET /metrics requires; see the kit's metricsTokenEnv. */
  METRICS_TOKEN: metricsTokenEnv.optional(),
});

export type GatewayConfig = z.infer<typeof gatewayEnv>;
