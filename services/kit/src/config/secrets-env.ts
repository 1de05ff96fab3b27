// SECRETS_ENCRYPTION_KEY: the key that encrypts, at rest, the secrets a service must read back (webhook signing
// secrets: HMAC needs the plaintext at send time), and from which photos derives its URL signing keys. Defined once
// here; every service that stores such secrets extends its env with `secretsFields` and
// `requireSecretsKeyOutsideDevelopment`, and reads the key with `secretsKeyOf` (or opens its SecretBox with `secretBoxFor`).
import { z } from 'zod';
import { SecretBox, decodeSecretBoxKey, sha256Hex } from '../security/index.js';
import { DEVELOPMENT_NODE_ENVS, describeNodeEnv, isDevelopmentNodeEnv } from './node-env.js';

/**
 * The fallback when SECRETS_ENCRYPTION_KEY is unset and NODE_ENV is `development` or `test` (DEVELOPMENT_NODE_ENVS):
 * a fixed, published value, so it protects nothing. With any other NODE_ENV, or none, a missing key stops the process
 * at start. `npm start` and `npm test` pass a real random key anyway.
 */
export const DEV_SECRETS_ENCRYPTION_KEY = Buffer.from(sha256Hex('tributary dev-only secrets encryption key, not a secret'), 'hex').toString('base64');

/** The variables, to `.extend()` a service's env with (pair it with `.superRefine(requireSecretsKeyOutsideDevelopment)`). */
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

interface SecretsConfig {
  NODE_ENV?: string | undefined;
  SECRETS_ENCRYPTION_KEY?: string | undefined;
}

/** Why a config without SECRETS_ENCRYPTION_KEY is refused (after the variable's name). */
function missingKeyProblem(nodeEnv: string | undefined): string {
  return `is required unless NODE_ENV is ${DEVELOPMENT_NODE_ENVS.join(' or ')} (${describeNodeEnv(nodeEnv)}): 32 bytes as base64, e.g. \`openssl rand -base64 32\``;
}

/** The rule: the published fallback key only in development and tests; anywhere else the key must be set. */
export function requireSecretsKeyOutsideDevelopment(env: SecretsConfig, ctx: z.RefinementCtx): void {
  if (!env.SECRETS_ENCRYPTION_KEY && !isDevelopmentNodeEnv(env.NODE_ENV)) {
    ctx.addIssue({ code: 'custom', path: ['SECRETS_ENCRYPTION_KEY'], message: missingKeyProblem(env.NODE_ENV) });
  }
}

/** Just the secrets variables: a worker, a seed and operator commands load these. */
export const secretsEnv = z.object(secretsFields).superRefine(requireSecretsKeyOutsideDevelopment);

/**
 * The key in force for a loaded config: SECRETS_ENCRYPTION_KEY, or the published fallback in development and tests.
 * Throws (naming the variable) for a config that skipped the rule, so no code path can sign or seal with the
 * fallback outside development.
 */
export function secretsKeyOf(config: SecretsConfig): string {
  if (config.SECRETS_ENCRYPTION_KEY) return config.SECRETS_ENCRYPTION_KEY;
  if (isDevelopmentNodeEnv(config.NODE_ENV)) return DEV_SECRETS_ENCRYPTION_KEY;
  throw new Error(`SECRETS_ENCRYPTION_KEY ${missingKeyProblem(config.NODE_ENV)}`);
}

/** The SecretBox for a loaded config (secretsKeyOf's key). */
export function secretBoxFor(config: SecretsConfig): SecretBox {
  return SecretBox.fromBase64(secretsKeyOf(config));
}
