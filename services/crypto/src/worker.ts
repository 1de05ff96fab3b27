// The crypto service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `crypto` task
// queue, activities on the crypto database, the workflow outbox's sweeper) with crypto's signing-secret resolver and the
// invoice expiry workflow's activities.
import { loadConfig, secretBoxFor, secretsEnv } from '@tributary/kit';
import {
  startServiceWorker,
  type RunningWorker,
  type ServiceWorkerContext,
  type ServiceWorkerDefinition,
  type SigningSecretContext,
  type StartServiceWorkerOptions,
} from '@tributary/kit/runtime';
import { SigningSecretService } from './modules/accounts/index.js';
import { createInvoiceActivities } from './modules/invoice-workflow/index.js';
import { PaymentRequestService } from './modules/payment-requests/index.js';
import { createPaymentWebhookSink } from './modules/webhooks/index.js';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: SERVICE_NAME, worker: cryptoWorker }, options);
}

/**
 * Expiry goes through the domain service with the webhook sink: payment.expired is queued in the expiring transaction
 * and its delivery workflow dispatched after the commit (the outbox sweeper covers a crash in between).
 */
function invoiceActivities({ orm, outbox }: ServiceWorkerContext) {
  return createInvoiceActivities({ paymentRequests: new PaymentRequestService(orm.em, { events: createPaymentWebhookSink({ outbox }), outbox }) });
}

/** The crypto part of the worker definition (cryptoService.worker). */
export const cryptoWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  activities: invoiceActivities,
};

/**
 * Resolves a delivery's `signingSecretRef` (`account:<id>`, see `signingSecretRef`) to the account's CURRENT signing
 * secret, decrypted at send time: after `secret rotate` the next attempt is signed with the new secret. Null (no
 * such account, no secret, another kind of reference) records the attempt as failed rather than sending it unsigned.
 */
export async function resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null> {
  const box = secretBoxFor(loadConfig(secretsEnv, context.env));
  return new SigningSecretService(context.em, box).resolve(ref);
}
