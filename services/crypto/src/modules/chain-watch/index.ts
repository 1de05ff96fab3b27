// Watching chains (issue 12): the block scan any chain's watcher runs, the UTXO chains' block source, and where each
// chain's scan stands.
import { ChainCursorSchema } from './chain-cursor.entity.js';
import { ScannedBlockSchema } from './scanned-block.entity.js';

export type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';
export { ChainCursor, ChainCursorSchema } from './chain-cursor.entity.js';
export { ChainWatcher, DEFAULT_MAX_BLOCKS_PER_SCAN, ReorgTooDeepError, SCANNED_BLOCKS_KEPT, type ChainWatcherOptions, type ReorgUndone, type ScanResult } from './chain-watcher.js';
export { ScannedBlock, ScannedBlockSchema } from './scanned-block.entity.js';
export { UtxoBlockSource, type UtxoChain } from './utxo-block-source.js';

/** Entities of this module, for the service's entity list. */
export const chainWatchEntities = [ChainCursorSchema, ScannedBlockSchema];
