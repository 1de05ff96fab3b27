// Reusable env-variable parsers and the variables every service reads. Services `.extend()` serviceEnv.
import { SERVICE_NAMES, type ServiceName } from '@tributary/workflows';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { REQUEST_DEADLINE_MS } from '../http/request-deadline.js';

/** An integer written in decimal, e.g. a port or a number of milliseconds. */
export const envInteger = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }));

export const envUrl = (protocols: readonly string[], description: string) =>
  z.string().trim().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be ${description}` },
  );

const hostnamePattern = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

/** One entry of WEBHOOK_ALLOW_PRIVATE_HOSTS: a hostname, an IP address or a CIDR range. */
export function isHostOrCidr(entry: string): boolean {
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry);
  return ipaddr.isValid(entry) || hostnamePattern.test(entry);
}

const commaList = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== ''))
  .superRefine((entries, ctx) => {
    for (const entry of entries.filter((e) => !isHostOrCidr(e))) {
      ctx.addIssue({ code: 'custom', message: `contains "${entry}", which is neither a host name, an IP address nor a CIDR range` });
    }
  });

const temporalAddress = z
  .string()
  .trim()
  .regex(/^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i, { error: 'must be host:port' });

const demoAuthorizationProblem = 'must be a JSON object mapping bnpl, crypto or photos to an Authorization value (visible ASCII, no line breaks)';

/**
 * GRAPHIQL_DEMO_AUTHORIZATION: `{"crypto": "Bearer ck_…", …}`, the Authorization value of each service's demo
 * credential, pre-filled in the GraphiQL pages' headers editors. `npm start` sets it from the seeds' output; it is
 * ignored when NODE_ENV=production (graphiqlDemoAuthorization). Every problem gets the one message, which never
 * repeats the value.
 */
export const graphiqlDemoAuthorizationEnv = z
  .string()
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: demoAuthorizationProblem });
      return z.NEVER;
    }
  })
  .pipe(
    z.partialRecord(
      z.enum(SERVICE_NAMES as [ServiceName, ...ServiceName[]], { error: demoAuthorizationProblem }),
      z.string({ error: demoAuthorizationProblem }).regex(/^[\x20-\x7e]{1,4096}$/, { error: demoAuthorizationProblem }),
      { error: demoAuthorizationProblem },
    ),
  );

/** METRICS_TOKEN: the bearer token a Prometheus scrape of /metrics must send; unset = /metrics answers whoever reaches the port. */
export const metricsTokenEnv = z.string().trim().min(16, { error: 'must be at least 16 characters' });

/**
 * The limits every `/graphql` applies to an operation before it runs: the gateway's and each service's own subgraph
 * (kit graphqlLimits). One set of names and defaults, so the gateway's query-plan fetches pass the subgraphs' checks;
 * an operator who changes one sets the same value on the gateway and the services.
 */
export const graphqlLimitFields = {
  /** Deepest selection nesting accepted (a fragment adds no level). */
  GRAPHQL_MAX_DEPTH: envInteger(1, 100).default(10),
  /** graphql-armor cost (objects 2, scalars 1, times 1.5 per level; `first`/`last` literals multiply a list). */
  GRAPHQL_MAX_COST: envInteger(1, 1_000_000).default(1000),
  GRAPHQL_MAX_ALIASES: envInteger(0, 1000).default(15),
  GRAPHQL_MAX_TOKENS: envInteger(10, 100_000).default(2000),
  GRAPHQL_MAX_DIRECTIVES: envInteger(0, 1000).default(50),
};

export const graphqlLimitsEnv = z.object(graphqlLimitFields);

export type GraphqlLimitsConfig = z.infer<typeof graphqlLimitsEnv>;

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const serviceEnv = z.object({
  PORT: envInteger(1, 65_535),
  HOST: z.string().trim().default('127.0.0.1'),
  DATABASE_URL: envUrl(['postgres:', 'postgresql:'], 'a postgres:// URL'),
  TEMPORAL_ADDRESS: temporalAddress.default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().trim().default('default'),
  /** `worker` only: workflows kept in memory between their tasks (runtime/worker.ts, DEFAULT_MAX_CACHED_WORKFLOWS). */
  TEMPORAL_MAX_CACHED_WORKFLOWS: envInteger(0, 100_000).optional(),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
  BODY_LIMIT: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, { error: 'must be a size such as 512kb or 1mb' })
    .default('1mb'),
  // Trailing slashes are dropped so callers can append paths without doubling them.
  PUBLIC_BASE_URL: envUrl(['http:', 'https:'], 'an http(s) URL').transform((url) => url.replace(/\/+$/, '')).optional(),
  WEBHOOK_ALLOW_PRIVATE_HOSTS: commaList.default([]),
  SHUTDOWN_GRACE_MS: envInteger(0, 600_000).default(10_000),
  /** How long a request may go unanswered before it is answered 503 (http/request-deadline.ts). */
  REQUEST_DEADLINE_MS: envInteger(1_000, 600_000).default(REQUEST_DEADLINE_MS),
  /** `production` turns off what is for local development only (GRAPHIQL_DEMO_AUTHORIZATION). */
  NODE_ENV: z.string().trim().optional(),
  GRAPHIQL_DEMO_AUTHORIZATION: graphiqlDemoAuthorizationEnv.optional(),
  METRICS_TOKEN: metricsTokenEnv.optional(),
  /** `worker` only: the port of its /metrics, /healthz and /readyz listener (on HOST); unset = no listener. */
  METRICS_PORT: envInteger(1, 65_535).optional(),
  ...graphqlLimitFields,
});

export type ServiceEnv = z.infer<typeof serviceEnv>;
