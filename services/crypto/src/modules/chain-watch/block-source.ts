// What a chain watcher reads from a node, whatever the chain (issue 12): the tip, a block's hash by height, and a
// block's payments to addresses. UtxoBlockSource reads Bitcoin Core JSON-RPC; an EVM source reads Ethereum JSON-RPC.
import type { Chain } from '../assets/index.js';

/** One value transfer in a block to an address (a UTXO output, an EVM transaction's value). */
export interface BlockTransfer {
  txid: string;
  /** Output index (bitcoin, litecoin); on EVM chains 0, the transaction's own value (README Decisions, "EVM watcher"). */
  index: number;
  /** As the gateway writes the chain's addresses (bech32 lower case; EIP-55 checksummed `0x…`). */
  address: string;
  /** Whole coins as exact decimal text, never a float. */
  amount: string;
}

export interface ChainBlock {
  height: number;
  hash: string;
  /** Null for the genesis block. */
  parentHash: string | null;
  transfers: BlockTransfer[];
}

export interface BlockSource {
  readonly chain: Chain;
  tipHeight(): Promise<number>;
  /** The hash of the node's block at `height` on its best chain. */
  blockHash(height: number): Promise<string>;
  block(height: number): Promise<ChainBlock>;
  /**
   * Of `block`'s transfers that pay a request, those whose transaction moved the value (an EVM transaction can be
   * mined and revert). Asked only for those, so a source that must look further (a receipt per transaction) does it
   * for a few transactions, not the whole block. A source without it (UTXO: a mined transaction always spends) means all.
   */
  succeeded?(block: ChainBlock, transfers: BlockTransfer[]): Promise<BlockTransfer[]>;
}
