// The crypto service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `crypto` task
// queue, activities on the crypto database, the dispatcher's sweeper) with crypto's signing-secret resolver.
import { loadConfig } from '@tributary/kit';
import { startServiceWorker, type RunningWorker, type SigningSecretContext, type StartServiceWorkerOptions } from '@tributary/kit/runtime';
import { secretBoxFor, secretsEnv } from './config.js';
import { SigningSecretService } from './modules/accounts/signing-secret.js';

export type { RunningWorker } from '@tributary/kit/runtime';

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: 'crypto', worker: { resolveSigningSecret } }, options);
}

/**
 * Resolves a delivery's `signingSecretRef` (`account:<id>`, see `signingSecretRef`) to the account's CURRENT signing
 * secret, decrypted at send time: after `secret rotate` the next attempt is signed with the new secret. Null (no
 * such account, no secret, another kind of reference) records the attempt as failed rather than sending it unsigned.
 */
export async function resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null> {
  const box = secretBoxFor(loadConfig(secretsEnv, context.env));
  return new SigningSecretService(context.em, box).resolve(ref);
}
