// The UTXO chain watcher's scan (issue 12 §2) for bitcoin and litecoin: from the stored cursor to the node's tip, every
// block read with `getblock <hash> 2`; each output paying the address of a payment request of this chain and network
// becomes a payment through PaymentService.record (idempotent on chain + txid + output index), with its confirmations;
// payments not counted yet are recounted as blocks arrive until they reach the asset's threshold. The cursor moves
// after each block, so a crash re-reads at most one block, and re-recording it changes nothing.
// Not here yet: undoing a reorg (a block whose parent is not the cursor's block stops the scan with the cursor's
// last_error saying so, so nothing is counted twice or from a stale branch), and the loop that runs scans.
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, ConflictError, type Logger } from '@tributary/kit';
import { outputAddress, type RpcBlock, type UtxoRpcClient } from '../chain-nodes/index.js';
import type { PaymentService } from '../payments/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import { ChainCursor } from './chain-cursor.entity.js';

export type UtxoChain = 'bitcoin' | 'litecoin';

/** Blocks read per scan at most, so one scan of a long backlog ends and the next continues from the cursor. */
export const DEFAULT_MAX_BLOCKS_PER_SCAN = 100;

export interface UtxoChainWatcherOptions {
  chain: UtxoChain;
  network: ChainNetwork;
  rpc: UtxoRpcClient;
  /** Built with the same network: it refuses a payment for a request made on another. */
  payments: PaymentService;
  maxBlocksPerScan?: number;
  /** Where an output that cannot be recorded (a legacy shared address, a payment below the asset's precision) is told. */
  logger?: Pick<Logger, 'warn'>;
  now?: () => Date;
}

export interface ScanResult {
  /** Last block scanned before and after this scan, and the node's tip. */
  fromHeight: number;
  toHeight: number;
  tipHeight: number;
  /** Outputs in the new blocks that pay a request (recorded as payments). */
  found: number;
  /** Payments of earlier blocks, not counted yet, whose confirmations were recounted. */
  recounted: number;
  /** Set when a block's parent was not the cursor's block: the scan stopped there. */
  reorgAt?: number;
}

interface FoundOutput {
  txid: string;
  index: number;
  address: string;
  amount: string;
}

export class UtxoChainWatcher {
  private readonly maxBlocks: number;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    private readonly options: UtxoChainWatcherOptions,
  ) {
    this.maxBlocks = options.maxBlocksPerScan ?? DEFAULT_MAX_BLOCKS_PER_SCAN;
    this.now = options.now ?? (() => new Date());
  }

  /** One scan: new blocks up to the tip (at most maxBlocksPerScan), then the recount of uncounted payments. */
  async scanOnce(): Promise<ScanResult> {
    const { rpc } = this.options;
    const tip = await rpc.getBlockCount();
    const cursor = await this.cursor(tip);
    const fromHeight = cursor.height;
    let found = 0;
    for (let height = cursor.height + 1; height <= Math.min(tip, fromHeight + this.maxBlocks); height++) {
      const block = await rpc.getBlock(await rpc.getBlockHash(height));
      if (block.previousblockhash !== cursor.blockHash) {
        await this.save(cursor, { tipHeight: tip, lastError: `block ${height}'s parent is not the scanned block ${cursor.height} (${cursor.blockHash}): a reorg; the scan stops here` });
        return { fromHeight, toHeight: cursor.height, tipHeight: tip, found, recounted: 0, reorgAt: height };
      }
      found += await this.recordOutputs(block, tip);
      await this.save(cursor, { height, blockHash: block.hash, tipHeight: tip, lastError: null });
    }
    const recounted = await this.recountConfirmations(fromHeight, tip);
    await this.save(cursor, { tipHeight: tip });
    return { fromHeight, toHeight: cursor.height, tipHeight: tip, found, recounted };
  }

  /**
   * The chain's cursor. The first scan (or the first after CRYPTO_NETWORK changed) starts at the node's tip: blocks
   * mined before the watcher first looked are not read (README Decisions, "UTXO watcher").
   */
  private async cursor(tip: number): Promise<ChainCursor> {
    const { chain, network, rpc } = this.options;
    const stored = await this.em.findOne(ChainCursor, { chain });
    if (stored && stored.network === network) return stored;
    const tipHash = await rpc.getBlockHash(tip);
    const fields = { chain, network, height: tip, blockHash: tipHash, tipHeight: tip, lastError: null, updatedAt: this.now() };
    if (stored) return this.save(stored, fields);
    const created = this.em.create(ChainCursor, fields);
    await this.em.flush();
    return created;
  }

  private async save(cursor: ChainCursor, fields: Partial<Pick<ChainCursor, 'network' | 'height' | 'blockHash' | 'tipHeight' | 'lastError'>>): Promise<ChainCursor> {
    Object.assign(cursor, fields, { updatedAt: this.now() });
    await this.em.flush();
    return cursor;
  }

  /** The block's outputs that pay a request of this chain and network, each recorded. */
  private async recordOutputs(block: RpcBlock, tip: number): Promise<number> {
    const found = await this.outputsToRequests(block);
    for (const output of found) {
      await this.record(output, { height: block.height, hash: block.hash }, tip - block.height + 1);
    }
    return found.length;
  }

  private async outputsToRequests(block: RpcBlock): Promise<FoundOutput[]> {
    const outputs: FoundOutput[] = [];
    for (const tx of block.tx) {
      for (const out of tx.vout) {
        const address = outputAddress(out);
        if (address !== null) outputs.push({ txid: tx.txid, index: out.n, address, amount: out.value });
      }
    }
    if (outputs.length === 0) return [];
    const rows = await this.em.getConnection().execute<Array<{ address: string }>>(
      'select distinct "address" from "payment_requests" where "chain" = ? and "network" = ? and "address" in (?)',
      [this.options.chain, this.options.network, [...new Set(outputs.map((o) => o.address))]],
    );
    const watched = new Set(rows.map((row) => row.address));
    return outputs.filter((output) => watched.has(output.address));
  }

  /**
   * Payments found by earlier scans (in blocks up to `scannedBefore`) that are not counted yet: their confirmations
   * from the block they are in. Those of this scan's blocks were recorded with the current tip already.
   */
  private async recountConfirmations(scannedBefore: number, tip: number): Promise<number> {
    const pending = await this.em.getConnection().execute<Array<{ txid: string; output_index: number; address: string; amount: string; block_height: number; block_hash: string }>>(
      `select p."txid", p."output_index", p."address", p."amount"::text as "amount", p."block_height", p."block_hash"
       from "payments" p join "payment_requests" r on r."id" = p."payment_request_id"
       where p."chain" = ? and r."network" = ? and not p."counted" and p."block_height" <= ?`,
      [this.options.chain, this.options.network, scannedBefore],
    );
    for (const row of pending) {
      const output = { txid: row.txid, index: row.output_index, address: row.address, amount: row.amount };
      await this.record(output, { height: row.block_height, hash: row.block_hash }, tip - row.block_height + 1);
    }
    return pending.length;
  }

  /** Records (or re-records) one output. An address two legacy requests share cannot be attributed: left to `pay`. */
  private async record(output: FoundOutput, block: { height: number; hash: string }, confirmations: number): Promise<void> {
    try {
      await this.options.payments.record({
        chain: this.options.chain,
        txid: output.txid,
        index: output.index,
        amount: output.amount,
        confirmations,
        block,
        to: { address: output.address },
      });
    } catch (error) {
      if (!(error instanceof ConflictError) && !(error instanceof BusinessRuleError)) throw error;
      this.options.logger?.warn({ chain: this.options.chain, txid: output.txid, index: output.index, err: error }, 'a chain output to a payment request was not recorded');
    }
  }
}
