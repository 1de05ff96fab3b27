// The bnpl service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `bnpl` task
// queue, activities on the bnpl database, the workflow outbox's sweeper) with bnpl's signing-secret resolver.
import { startServiceWorker, type RunningWorker, type StartServiceWorkerOptions } from '@tributary/kit/runtime';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  return startServiceWorker({ name: SERVICE_NAME, worker: { resolveSigningSecret } }, options);
}

/**
 * Signing secrets are resolved at send time so a rotated secret applies to the next attempt. This slice has no
 * webhook endpoints or signing secrets yet (they arrive with the service's webhook issue), so there is nothing to
 * resolve: an attempt for an unknown reference is recorded as failed rather than sent unsigned.
 */
export async function resolveSigningSecret(_ref: string): Promise<string | null> {
  return null;
}
