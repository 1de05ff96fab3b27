// Watching chains (issue 12): the block scan any chain's watcher runs, the UTXO and EVM chains' block sources, and
// where each chain's scan stands.
import { ChainCursorSchema } from './chain-cursor.entity.js';
import { ScannedBlockSchema } from './scanned-block.entity.js';

export type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';
export { ChainCursor, ChainCursorSchema } from './chain-cursor.entity.js';
export { ChainWatcher, DEFAULT_MAX_BLOCKS_PER_SCAN, ReorgTooDeepError, SCANNED_BLOCKS_KEPT, type ChainWatcherOptions, type ReorgUndone, type ScanResult } from './chain-watcher.js';
export { EvmBlockSource, EvmChainChangedError, NATIVE_TRANSFER_INDEX, type EvmBlockSourceOptions, type EvmChain } from './evm-block-source.js';
export { ScannedBlock, ScannedBlockSchema } from './scanned-block.entity.js';
export { UtxoBlockSource, type UtxoChain } from './utxo-block-source.js';

/** Entities of this module, for the service's entity list. */
export const chainWatchEntities = [ChainCursorSchema, ScannedBlockSchema];
