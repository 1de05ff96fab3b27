// The bnpl service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `bnpl` task
// queue, activities on the bnpl database, the workflow outbox's sweeper) with bnpl's signing-secret resolver and the
// widget session expiry workflow's activity.
import { startServiceWorker, type RunningWorker, type ServiceWorkerContext, type ServiceWorkerDefinition, type StartServiceWorkerOptions } from '@tributary/kit/runtime';
import { WidgetSessionService, createWidgetSessionActivities } from './modules/widget-sessions/index.js';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  return startServiceWorker({ name: SERVICE_NAME, worker: bnplWorker }, options);
}

/**
 * Signing secrets are resolved at send time so a rotated secret applies to the next attempt. This slice has no
 * webhook endpoints or signing secrets yet (they arrive with the service's webhook issue), so there is nothing to
 * resolve: an attempt for an unknown reference is recorded as failed rather than sent unsigned.
 */
export async function resolveSigningSecret(_ref: string): Promise<string | null> {
  return null;
}

/** The widget session expiry workflow's activity: WidgetSessionService.expireIfDue on the worker's database. */
function widgetSessionActivities({ orm }: ServiceWorkerContext) {
  return createWidgetSessionActivities({ sessions: new WidgetSessionService(orm.em) });
}

/** The bnpl part of the worker definition (bnplService.worker). */
export const bnplWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  activities: widgetSessionActivities,
};
