// CRYPTO_NETWORK: the chain network every address, payment URI and watcher of this deployment is on. `testnet` by
// default (worthless coins, today's addresses), `regtest` for a local node (bcrt1…/rltc1…; EVM addresses are the same on
// every network), `mainnet` only when CRYPTO_MAINNET_CONFIRM says the operator means real money.
import { loadConfig } from '@tributary/kit';
import { z } from 'zod';
import { CHAIN_NETWORKS, DEFAULT_CHAIN_NETWORK, type ChainNetwork } from './modules/receive-addresses/index.js';

/** The exact value CRYPTO_MAINNET_CONFIRM must hold for CRYPTO_NETWORK=mainnet. */
export const MAINNET_CONFIRMATION = 'real-funds';

export const MAINNET_NOT_CONFIRMED_MESSAGE = `mainnet moves real money: set CRYPTO_MAINNET_CONFIRM=${MAINNET_CONFIRMATION} as well to confirm it`;

/** The variables, to `.extend()` the service's env with (pair it with `.superRefine(requireMainnetConfirmation)`). */
export const networkFields = {
  CRYPTO_NETWORK: z.enum(CHAIN_NETWORKS).default(DEFAULT_CHAIN_NETWORK),
  CRYPTO_MAINNET_CONFIRM: z.string().trim().optional(),
};

export function requireMainnetConfirmation(config: { CRYPTO_NETWORK: ChainNetwork; CRYPTO_MAINNET_CONFIRM?: string | undefined }, ctx: z.RefinementCtx): void {
  if (config.CRYPTO_NETWORK === 'mainnet' && config.CRYPTO_MAINNET_CONFIRM !== MAINNET_CONFIRMATION) {
    ctx.addIssue({ code: 'custom', path: ['CRYPTO_NETWORK'], message: MAINNET_NOT_CONFIRMED_MESSAGE });
  }
}

export const networkEnv = z.object(networkFields).superRefine(requireMainnetConfirmation);

/** The network of `env` (seed and operator commands, which do not load the whole service config). */
export const chainNetworkOf = (env: NodeJS.ProcessEnv): ChainNetwork => loadConfig(networkEnv, env).CRYPTO_NETWORK;
