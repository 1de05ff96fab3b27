// Blocks of an EVM chain (ethereum, polygon) as the watcher reads them (issue 12 §3): eth_getBlockByNumber with full
// transactions; every transaction with a recipient and a value above zero is a native transfer of that value to the
// recipient. Only top-level transfers are seen: value a contract passes on (an internal transfer, e.g. from a
// multisig or an exchange's forwarder) is in no transaction's `to`/`value` and needs a node's trace API (README
// Decisions, "EVM watcher"). A transaction can be mined and revert, moving nothing: the receipts of the few
// transactions that pay a request are checked before they are recorded.
import { formatEther, type Hash } from 'viem';
import type { EvmRpcClient } from '../chain-nodes/index.js';
import { toChecksumAddress } from '../receive-addresses/index.js';
import type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';

export type EvmChain = 'ethereum' | 'polygon';

/**
 * The payment `index` of a transaction's own value: a transaction sends native value to exactly one recipient, so
 * (txid, 0) names it. Not the transaction's position in its block, which changes when a reorg mines it elsewhere and
 * would make the same transfer a second payment instead of giving the orphaned one its new block. Other indexes are
 * left to a future trace-based source (internal transfers of one transaction).
 */
export const NATIVE_TRANSFER_INDEX = 0;

export interface EvmBlockSourceOptions {
  /**
   * The EIP-155 chain id the node must run (EVM_CHAIN_IDS of the gateway's network), checked once before the first
   * tip is read: a polygon URL given for ethereum (or a mainnet node for a test network) would otherwise be scanned
   * and its transfers recorded against the other chain's requests, which share addresses.
   */
  chainId?: number;
}

/** A transfer's block left the node's chain while its receipt was read: the next scan undoes the reorg. */
export class EvmChainChangedError extends Error {
  constructor(chain: EvmChain, txid: string, height: number) {
    super(`${chain}: transaction ${txid} is no longer in block ${height} (a reorg while the block was read); the next scan goes on from the fork`);
    this.name = 'EvmChainChangedError';
  }
}

export class EvmBlockSource implements BlockSource {
  private chainIdChecked = false;

  constructor(
    readonly chain: EvmChain,
    private readonly rpc: EvmRpcClient,
    private readonly options: EvmBlockSourceOptions = {},
  ) {}

  async tipHeight(): Promise<number> {
    if (!this.chainIdChecked && this.options.chainId !== undefined) {
      const actual = await this.rpc.chainId();
      if (actual !== this.options.chainId) throw new Error(`${this.chain}: the node runs chain id ${actual}, not ${this.options.chainId}; check CRYPTO_NETWORK and the node's RPC URL`);
      this.chainIdChecked = true;
    }
    return this.rpc.blockNumber();
  }

  blockHash(height: number): Promise<string> {
    return this.rpc.blockHash(height);
  }

  async block(height: number): Promise<ChainBlock> {
    const block = await this.rpc.block(height);
    const transfers: BlockTransfer[] = [];
    for (const tx of block.transactions) {
      if (tx.to === null || tx.value <= 0n) continue;
      // The gateway stores EVM addresses EIP-55 checksummed; nodes answer lower case. Wei → ETH as exact text
      // (formatEther is bigint and string work, no float).
      transfers.push({ txid: tx.hash, index: NATIVE_TRANSFER_INDEX, address: toChecksumAddress(tx.to), amount: formatEther(tx.value) });
    }
    // Genesis has a parent hash of zeros: no parent.
    return { height: block.number, hash: block.hash, parentHash: block.number === 0 ? null : block.parentHash, transfers };
  }

  /** The transfers whose transaction succeeded (receipt status 1), read from the block they were found in. */
  async succeeded(block: ChainBlock, transfers: BlockTransfer[]): Promise<BlockTransfer[]> {
    const kept: BlockTransfer[] = [];
    for (const transfer of transfers) {
      const receipt = await this.rpc.receipt(transfer.txid as Hash);
      if (receipt.blockHash !== block.hash) throw new EvmChainChangedError(this.chain, transfer.txid, block.height);
      if (receipt.succeeded) kept.push(transfer);
    }
    return kept;
  }
}
