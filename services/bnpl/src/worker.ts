// The bnpl service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `bnpl` task
// queue, activities on the bnpl database, the workflow outbox's sweeper) with bnpl's signing-secret resolver and the
// activities of the widget session expiry and loan lifecycle workflows.
import { loadConfig, secretBoxFor, secretsEnv } from '@tributary/kit';
import {
  startServiceWorker,
  type RunningWorker,
  type ServiceWorkerContext,
  type ServiceWorkerDefinition,
  type SigningSecretContext,
  type StartServiceWorkerOptions,
} from '@tributary/kit/runtime';
import { LoanLifecycleService, createLoanActivities } from './modules/loans/index.js';
import { WebhookEndpointSecrets } from './modules/webhook-endpoints/index.js';
import { createLoanWebhookSink } from './modules/webhooks/index.js';
import { WidgetSessionService, createWidgetSessionActivities } from './modules/widget-sessions/index.js';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: SERVICE_NAME, worker: bnplWorker }, options);
}

/**
 * Resolves a delivery's `signingSecretRef` (`webhook_endpoint:<id>`) to the endpoint's secret, decrypted at send time.
 * Null (the endpoint was deleted, another kind of reference) records the attempt as failed rather than sending it
 * unsigned; a wrong SECRETS_ENCRYPTION_KEY throws (infrastructure trouble: the attempt is retried, not recorded).
 */
export async function resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null> {
  const box = secretBoxFor(loadConfig(secretsEnv, context.env));
  return new WebhookEndpointSecrets(context.em, box).resolve(ref);
}

/** The widget session expiry workflow's activity: WidgetSessionService.expireIfDue on the worker's database. */
function widgetSessionActivities({ orm }: ServiceWorkerContext) {
  return createWidgetSessionActivities({ sessions: new WidgetSessionService(orm.em) });
}

/**
 * The loan lifecycle workflow's activity: LoanLifecycleService.advance on the worker's database, its webhook events
 * dispatched by the worker's outbox right after each step's commit.
 */
function loanActivities({ orm, outbox }: ServiceWorkerContext) {
  return createLoanActivities({ lifecycle: new LoanLifecycleService(orm.em, { events: createLoanWebhookSink({ outbox }), outbox }) });
}

/** The bnpl part of the worker definition (bnplService.worker). */
export const bnplWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  activities: (context) => ({ ...widgetSessionActivities(context), ...loanActivities(context) }),
};
