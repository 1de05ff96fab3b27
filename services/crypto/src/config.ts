// The crypto service's environment: the kit's serviceEnv plus the key that encrypts webhook signing secrets at rest
// (the kit's secrets env: SECRETS_ENCRYPTION_KEY, required unless NODE_ENV is development or test) and the rate limits.
import { requireSecretsKeyOutsideDevelopment, secretsFields, serviceEnv } from '@tributary/kit';
import { networkFields, requireMainnetConfirmation } from './chain-network.js';
import { chainWatchFields } from './modules/chain-watch/index.js';
import { gapLimitFields } from './modules/receive-addresses/index.js';
import { rateLimitFields } from './rate-limits.js';

/** `serve`: serviceEnv + secrets + rate limits (rate-limits.ts) + the chain network (chain-network.ts) + the watched chains' nodes + CRYPTO_GAP_LIMIT. */
export const cryptoEnv = serviceEnv
  .extend({ ...secretsFields, ...rateLimitFields, ...networkFields, ...chainWatchFields, ...gapLimitFields })
  .superRefine(requireSecretsKeyOutsideDevelopment)
  .superRefine(requireMainnetConfirmation);
