// What the stack runs: the three services (entry point services/<name>/dist/cli.js) and the gateway
// (gateway/dist/main.js), with their ports and the URLs the table shows.
import path from 'node:path';
import { TASK_QUEUES } from '@tributary/workflows';
import type { StackEnv } from './config.js';

export const SERVICE_NAMES = ['bnpl', 'crypto', 'photos'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceSpec {
  name: ServiceName;
  title: string;
  portVariable: string;
  port: number;
  database: string;
  databaseVariable: string;
  /** REST prefix fixed by the service's spec. */
  restBase: string;
  /** Temporal task queue of the service's worker (TASK_QUEUES in @tributary/workflows). */
  taskQueue: string;
  cli: string;
}

/** Where each service documents its API (served by the service itself). */
export const API_DOCS_PATH = '/docs';

export function serviceSpecs(root: string, env: StackEnv): ServiceSpec[] {
  const base = {
    bnpl: { title: 'BNPL merchant', port: env.BNPL_PORT, restBase: '/api/v1' },
    crypto: { title: 'Crypto payments', port: env.CRYPTO_PORT, restBase: '/api/merchant/v1' },
    photos: { title: 'Site photos', port: env.PHOTOS_PORT, restBase: '/api/v1' },
  } as const;
  return SERVICE_NAMES.map((name) => ({
    name,
    ...base[name],
    portVariable: `${name.toUpperCase()}_PORT`,
    database: `tributary_${name}`,
    databaseVariable: `${name.toUpperCase()}_DATABASE_URL`,
    taskQueue: TASK_QUEUES[name],
    cli: path.join(root, 'services', name, 'dist', 'cli.js'),
  }));
}

export function gatewayEntry(root: string): string {
  return path.join(root, 'gateway', 'dist', 'main.js');
}

/** Host for URLs shown to people: a wildcard bind address is reached through localhost. */
export function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '127.0.0.1' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
}
