// The crypto service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `crypto` task
// queue, activities on the crypto database, the dispatcher's sweeper) with crypto's signing-secret resolver, plus the
// invoice expiry workflow's activities and its sweeper for invoices whose workflow was never started.
import { loadConfig } from '@tributary/kit';
import {
  startServiceWorker,
  type RunningWorker,
  type ServiceWorkerContext,
  type ServiceWorkerDefinition,
  type SigningSecretContext,
  type StartServiceWorkerOptions,
} from '@tributary/kit/runtime';
import { secretBoxFor, secretsEnv } from './config.js';
import { SigningSecretService } from './modules/accounts/signing-secret.js';
import { createInvoiceActivities, createInvoiceExpirySweeper } from './modules/invoice-workflow/index.js';
import { PaymentRequestService } from './modules/payment-requests/payment-request.service.js';
import { createPaymentWebhookSink } from './modules/webhooks/index.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: 'crypto', worker: cryptoWorker }, options);
}

/**
 * Expiry goes through the domain service with the webhook sink: payment.expired is queued in the expiring transaction
 * and its delivery workflow started after commit (the worker's sweeper covers a crash in between).
 */
function paymentRequestsFor({ orm, logger, webhookDispatcher }: ServiceWorkerContext): () => PaymentRequestService {
  const events = createPaymentWebhookSink({ logger, dispatcher: webhookDispatcher });
  return () => new PaymentRequestService(orm.em.fork(), { events });
}

/** The crypto part of the worker definition (cryptoService.worker). */
export const cryptoWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  activities: (context) => createInvoiceActivities({ paymentRequests: paymentRequestsFor(context) }),
  background: (context) => [
    createInvoiceExpirySweeper({ em: context.orm.em, paymentRequests: paymentRequestsFor(context), logger: context.logger }).start(),
  ],
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
