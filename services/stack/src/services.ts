// What the stack runs: the three services (entry point services/<name>/dist/cli.js) and the gateway
// (gateway/dist/main.js), with their ports and the URLs the table shows.
import path from 'node:path';
import { SERVICE_NAMES, TASK_QUEUES, type ServiceName } from '@tributary/workflows';
import type { StackEnv } from './config.js';

export { SERVICE_NAMES, type ServiceName };

export interface ServiceSpec {
  name: ServiceName;
  title: string;
  portVariable: string;
  port: number;
  /** The worker's METRICS_PORT (its /metrics, /healthz and /readyz). */
  workerMetricsPortVariable: string;
  workerMetricsPort: number;
  database: string;
  databaseVariable: string;
  /** REST prefix fixed by the service's spec. */
  restBase: string;
  /** Temporal task queue of the service's worker (TASK_QUEUES in @tributary/workflows). */
  taskQueue: string;
  /** The seed credential a dashboard sends as `Authorization: Bearer <it>` (pre-filled in the GraphiQL pages). */
  bearerCredential: string;
  cli: string;
}

/** Where each service documents its API (served by the service itself). */
export const API_DOCS_PATH = '/docs';

export function serviceSpecs(root: string, env: StackEnv): ServiceSpec[] {
  const base = {
    bnpl: { title: 'BNPL merchant', port: env.BNPL_PORT, workerMetricsPort: env.BNPL_WORKER_METRICS_PORT, restBase: '/api/v1', bearerCredential: 'dashboard_token' },
    crypto: { title: 'Crypto payments', port: env.CRYPTO_PORT, workerMetricsPort: env.CRYPTO_WORKER_METRICS_PORT, restBase: '/api/merchant/v1', bearerCredential: 'api_key' },
    photos: { title: 'Site photos', port: env.PHOTOS_PORT, workerMetricsPort: env.PHOTOS_WORKER_METRICS_PORT, restBase: '/api/v1', bearerCredential: 'token' },
  } as const;
  return SERVICE_NAMES.map((name) => ({
    name,
    ...base[name],
    portVariable: `${name.toUpperCase()}_PORT`,
    workerMetricsPortVariable: `${name.toUpperCase()}_WORKER_METRICS_PORT`,
    database: `tributary_${name}`,
    databaseVariable: `${name.toUpperCase()}_DATABASE_URL`,
    taskQueue: TASK_QUEUES[name],
    cli: path.join(root, 'services', name, 'dist', 'cli.js'),
  }));
}

/** Where each service and the gateway serve GraphiQL to browsers (their GraphQL endpoint). */
export const GRAPHQL_PATH = '/graphql';

/**
 * GRAPHIQL_DEMO_AUTHORIZATION's value for the given services: each one's demo bearer credential, read from its seed's
 * output, as an Authorization value (`{"crypto": "Bearer ck_…"}`); a service whose seed printed none is left out.
 */
export function demoAuthorization(specs: readonly ServiceSpec[], credentials: ReadonlyMap<ServiceName, Record<string, unknown> | undefined>): string {
  const values: Partial<Record<ServiceName, string>> = {};
  for (const spec of specs) {
    const bearer = credentials.get(spec.name)?.[spec.bearerCredential];
    if (typeof bearer === 'string' && bearer !== '') values[spec.name] = `Bearer ${bearer}`;
  }
  return JSON.stringify(values);
}

export function gatewayEntry(root: string): string {
  return path.join(root, 'gateway', 'dist', 'main.js');
}

/** Host for URLs shown to people: a wildcard bind address is reached through localhost. */
export function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '127.0.0.1' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
}
