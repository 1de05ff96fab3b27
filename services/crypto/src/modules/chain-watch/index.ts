// Watching chains (issue 12): the UTXO block scan and where each chain's scan stands.
import { ChainCursorSchema } from './chain-cursor.entity.js';

export { ChainCursor, ChainCursorSchema } from './chain-cursor.entity.js';
export { DEFAULT_MAX_BLOCKS_PER_SCAN, UtxoChainWatcher, type ScanResult, type UtxoChain, type UtxoChainWatcherOptions } from './utxo-chain-watcher.js';

/** Entities of this module, for the service's entity list. */
export const chainWatchEntities = [ChainCursorSchema];
