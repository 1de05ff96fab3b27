// The crypto service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `crypto` task
// queue, activities on the crypto database, the workflow outbox's sweeper) with crypto's signing-secret resolver, the
// invoice expiry workflow's activities and the chain watchers (a chain-watch-<chain> workflow per configured node).
import type { EntityManager } from '@mikro-orm/postgresql';
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
import { chainNetworkOf } from './chain-network.js';
import { SigningSecretService } from './modules/accounts/index.js';
import { blockSources, chainWatchEnv, createChainWatchActivities, ensureChainWatchWorkflows, watchedChains } from './modules/chain-watch/index.js';
import { createInvoiceActivities } from './modules/invoice-workflow/index.js';
import { PaymentRequestService } from './modules/payment-requests/index.js';
import { PaymentService } from './modules/payments/index.js';
import { createPaymentWebhookSink, renderPaymentWebhookBody } from './modules/webhooks/index.js';
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

/**
 * A chain watcher's scan records payments through the payment domain with the webhook sink, on the configured
 * network: payment.paid is queued in the payment's transaction like any other.
 */
function chainWatchActivities({ orm, outbox, env, logger }: ServiceWorkerContext) {
  const network = chainNetworkOf(env);
  const payments = (em: EntityManager) => new PaymentService(em, { events: createPaymentWebhookSink({ outbox }), outbox, network });
  return createChainWatchActivities({ orm, sources: blockSources(loadConfig(chainWatchEnv, env), network), network, payments, logger });
}

/**
 * Asks Temporal for a chain-watch-<chain> workflow per configured node once it answers, retrying every 10 s while it
 * does not (as bnpl's settlement schedules), so a worker started before Temporal still starts its watchers.
 */
function chainWatchStarts({ temporal, logger, env }: ServiceWorkerContext) {
  const config = loadConfig(chainWatchEnv, env);
  const chains = watchedChains(config).map(({ chain }) => chain);
  if (chains.length === 0) return [];
  return [retryUntilDone('start the chain watchers', () => ensureChainWatchWorkflows(temporal, chains, config.CRYPTO_CHAIN_POLL_INTERVAL_MS, logger), logger)];
}

/** The crypto part of the worker definition (cryptoService.worker). */
export const cryptoWorker: ServiceWorkerDefinition = {
  resolveSigningSecret,
  // Each attempt carries the request's status at the moment it is sent (spec "Body"), read here, then signed.
  renderWebhookBody: (delivery, sentAt, { em }) => renderPaymentWebhookBody(em, delivery, sentAt),
  activities: (context) => ({ ...invoiceActivities(context), ...chainWatchActivities(context) }),
  background: chainWatchStarts,
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
