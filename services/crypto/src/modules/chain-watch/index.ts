// Watching chains (issue 12): the block scan any chain's watcher runs, the UTXO and EVM chains' block sources, where
// each chain's scan stands, the chain-watch workflow's activity and start, and each watcher's health.
import { ChainCursorSchema } from './chain-cursor.entity.js';
import { ScannedBlockSchema } from './scanned-block.entity.js';

export type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';
export { ChainCursor, ChainCursorSchema } from './chain-cursor.entity.js';
export { createChainWatchActivities, type ChainWatchActivitiesDeps } from './chain-watch.activities.js';
export { blockSources, chainWatchEnv, chainWatchFields, CHAIN_STALE_AFTER_POLLS, DEFAULT_CHAIN_POLL_INTERVAL_MS, rpcUrlVariable, watchedChains, type ChainWatchConfig } from './chain-watch.config.js';
export { ChainWatchHealth, NOT_STARTED_MESSAGE, type ChainWatchHealthOptions, type ChainWatchStatus } from './chain-watch.health.js';
export { chainWatchResolvers } from './chain-watch.resolvers.js';
export { ensureChainWatchWorkflows } from './chain-watch.starts.js';
export { ChainWatcher, DEFAULT_MAX_BLOCKS_PER_SCAN, ReorgTooDeepError, SCANNED_BLOCKS_KEPT, type ChainWatcherOptions, type ReorgUndone, type ScanResult } from './chain-watcher.js';
export { EvmBlockSource, EvmChainChangedError, NATIVE_TRANSFER_INDEX, type EvmBlockSourceOptions, type EvmChain } from './evm-block-source.js';
export { ScannedBlock, ScannedBlockSchema } from './scanned-block.entity.js';
export { UtxoBlockSource, type UtxoChain } from './utxo-block-source.js';

/** Entities of this module, for the service's entity list. */
export const chainWatchEntities = [ChainCursorSchema, ScannedBlockSchema];
