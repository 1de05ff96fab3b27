// The bnpl service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `bnpl` task
// queue, activities on the bnpl database, the workflow outbox's sweeper) with bnpl's signing-secret resolver and the
// activities of bnpl's own workflows (widget session expiry, loan lifecycle, refund processing, settlements) and the
// settlement Schedules.
import { loadConfig, secretBoxFor, secretsEnv } from '@tributary/kit';
import {
  retryUntilDone,
  startServiceWorker,
  type RunningWorker,
  type ServiceWorkerContext,
  type ServiceWorkerDefinition,
  type SigningSecretContext,
  type StartServiceWorkerOptions,
} from '@tributary/kit/runtime';
import { LoanLifecycleService, createLoanActivities } from './modules/loans/index.js';
import { RefundService, createRefundActivities } from './modules/refunds/index.js';
import { SettlementService, createSettlementActivities, ensureSettlementSchedules } from './modules/settlements/index.js';
import { WebhookEndpointSecrets } from './modules/webhook-endpoints/index.js';
import { createLoanWebhookSink, createSettlementWebhookSink } from './modules/webhooks/index.js';
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

/**
 * bnpl's activities on the worker's database, each from its module's factory over its domain service: widget session
 * expiry, the loan lifecycle (its webhook events dispatched by the worker's outbox right after each step's commit),
 * refund processing (the simulated payment processor) and settlements (cut, payout, settlement.processed).
 */
function bnplActivities({ orm, outbox }: ServiceWorkerContext) {
  return {
    ...createWidgetSessionActivities({ sessions: new WidgetSessionService(orm.em) }),
    ...createLoanActivities({ lifecycle: new LoanLifecycleService(orm.em, { events: createLoanWebhookSink({ outbox }), outbox }) }),
    ...createRefundActivities({ refunds: new RefundService(orm.em) }),
    ...createSettlementActivities({ settlements: new SettlementService(orm.em, { outbox, events: createSettlementWebhookSink({ outbox }) }) }),
  };
}

/**
 * Creates the settlement Schedules (one per cadence) once Temporal answers, retrying every 10 s while it does not, so
 * a worker started before Temporal still sets them up.
 */
function settlementSchedules({ temporal, logger }: ServiceWorkerContext) {
  return [retryUntilDone('create the settlement schedules', () => ensureSettlementSchedules(temporal, logger), logger)];
}

/** The bnpl part of the worker definition (bnplService.worker). */
export const bnplWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  activities: bnplActivities,
  background: settlementSchedules,
};
