// SECRETS_ENCRYPTION_KEY: the key that encrypts, at rest, the secrets a service must read back (webhook signing
// secrets: HMAC needs the plaintext at send time). Defined once here; every service that stores such secrets extends
// its env with `secretsFields` and `requireSecretsKeyInProduction`, and opens its SecretBox with `secretBoxFor`.
import { z } from 'zod';
import { SecretBox, decodeSecretBoxKey, sha256Hex } from '../security/index.js';

/**
 * Dev-only fallback when SECRETS_ENCRYPTION_KEY is unset outside production (jest runs, a service started by hand):
 * a fixed, published value, so it protects nothing. `npm start` and `npm test` always pass a real random key;
 * with NODE_ENV=production a missing key is a startup error.
 */
export const DEV_SECRETS_ENCRYPTION_KEY = Buffer.from(sha256Hex('tributary dev-only secrets encryption key, not a secret'), 'hex').toString('base64');

/** The variables, to `.extend()` a service's env with (pair it with `.superRefine(requireSecretsKeyInProduction)`). */
export const secretsFields = {
  NODE_ENV: z.string().trim().optional(),
  SECRETS_ENCRYPTION_KEY: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      try {
        decodeSecretBoxKey(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes encoded as base64 (44 characters), e.g. from `openssl rand -base64 32`' });
      }
    })
    .optional(),
};

/** The production rule: no fallback key when NODE_ENV=production. */
export function requireSecretsKeyInProduction(env: { NODE_ENV?: string | undefined; SECRETS_ENCRYPTION_KEY?: string | undefined }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.SECRETS_ENCRYPTION_KEY) {
    ctx.addIssue({ code: 'custom', path: ['SECRETS_ENCRYPTION_KEY'], message: 'is required in production (32 bytes as base64, e.g. `openssl rand -base64 32`)' });
  }
}

/** Just the secrets variables: a worker, a seed and operator commands load these. */
export const secretsEnv = z.object(secretsFields).superRefine(requireSecretsKeyInProduction);

/** The SecretBox for a loaded config (the dev fallback key when none is set outside production). */
export function secretBoxFor(config: { SECRETS_ENCRYPTION_KEY?: string | undefined }): SecretBox {
  return SecretBox.fromBase64(config.SECRETS_ENCRYPTION_KEY ?? DEV_SECRETS_ENCRYPTION_KEY);
}
