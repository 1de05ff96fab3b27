// Which chains this deployment watches (issue 12 §4): a chain is watched when its asset's node is configured,
// CRYPTO_<ASSET>_RPC_URL (e.g. CRYPTO_LTC_RPC_URL for litecoin). The serve process reads the same variables to report
// each watched chain's health; the worker runs a chain-watch-<chain> workflow for each.
import { z } from 'zod';
import { EvmRpcClient, UtxoRpcClient } from '../chain-nodes/index.js';
import { ASSET_TABLE, type AssetCode, type Chain } from '../assets/index.js';
import { EVM_CHAIN_IDS } from '../hosted-page/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import type { BlockSource } from './block-source.js';
import { EvmBlockSource } from './evm-block-source.js';
import { UtxoBlockSource } from './utxo-block-source.js';

/** The variable naming an asset's node. */
export const rpcUrlVariable = (code: AssetCode): `CRYPTO_${AssetCode}_RPC_URL` => `CRYPTO_${code}_RPC_URL`;

/** How long the watcher waits between scans at the tip; a chain not scanned for CHAIN_STALE_AFTER_POLLS of these is unhealthy. */
export const DEFAULT_CHAIN_POLL_INTERVAL_MS = 5_000;
export const CHAIN_STALE_AFTER_POLLS = 12;

const rpcUrl = z.url({ protocol: /^https?$/ }).optional();

/** The variables, to `.extend()` a service env with. */
export const chainWatchFields = {
  CRYPTO_BTC_RPC_URL: rpcUrl,
  CRYPTO_ETH_RPC_URL: rpcUrl,
  CRYPTO_LTC_RPC_URL: rpcUrl,
  CRYPTO_MATIC_RPC_URL: rpcUrl,
  CRYPTO_CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_CHAIN_POLL_INTERVAL_MS),
} satisfies Record<`CRYPTO_${AssetCode}_RPC_URL` | 'CRYPTO_CHAIN_POLL_INTERVAL_MS', z.ZodType>;

export const chainWatchEnv = z.object(chainWatchFields);
export type ChainWatchConfig = z.infer<typeof chainWatchEnv>;

/** The chains with a configured node, and each node's URL. */
export function watchedChains(config: ChainWatchConfig): Array<{ chain: Chain; code: AssetCode; url: string }> {
  return ASSET_TABLE.flatMap(({ chain, code }) => {
    const url = config[rpcUrlVariable(code)];
    return url ? [{ chain, code, url }] : [];
  });
}

/** A block source per watched chain; an EVM node must run the network's chain id (a polygon URL is never read as ethereum). */
export function blockSources(config: ChainWatchConfig, network: ChainNetwork): Map<Chain, BlockSource> {
  const sources = new Map<Chain, BlockSource>();
  for (const { chain, url } of watchedChains(config)) {
    const source =
      chain === 'bitcoin' || chain === 'litecoin'
        ? new UtxoBlockSource(chain, new UtxoRpcClient({ url }))
        : new EvmBlockSource(chain, new EvmRpcClient({ url }), { chainId: EVM_CHAIN_IDS[network][chain] });
    sources.set(chain, source);
  }
  return sources;
}
