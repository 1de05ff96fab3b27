// The photos service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `photos` task
// queue, activities on the photos database, the workflow outbox's sweeper) with photos' signing-secret resolver.
import { loadConfig, secretBoxFor, secretsEnv } from '@tributary/kit';
import { startServiceWorker, type RunningWorker, type SigningSecretContext, type StartServiceWorkerOptions } from '@tributary/kit/runtime';
import { WebhookEndpoint, webhookSecretSeal } from './modules/webhook-endpoints/index.js';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: SERVICE_NAME, worker: { resolveSigningSecret } }, options);
}

/**
 * Resolves a delivery's `signingSecretRef` (`webhook_endpoint:<id>`) to the endpoint's secret, decrypted at send time.
 * Null (the endpoint was deleted) records the attempt as failed rather than sending it unsigned; a wrong
 * SECRETS_ENCRYPTION_KEY throws (infrastructure trouble: the attempt is retried, not recorded).
 */
export async function resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null> {
  const seal = webhookSecretSeal(secretBoxFor(loadConfig(secretsEnv, context.env)));
  return seal.resolve(ref, (endpointId) => context.em.getRepository(WebhookEndpoint).sealedSecretOf(endpointId));
}
