// A chain watcher's scan (issue 12 §2–3), the same for every chain: from the stored cursor to the node's tip, each
// block's transfers to the address of a payment request of this chain and network become payments through
// PaymentService.record (idempotent on chain + txid + index), with their confirmations; payments not counted yet are
// recounted as blocks arrive until they reach the asset's threshold. The cursor moves after each block, so a crash
// re-reads at most one block, and re-recording it changes nothing. A reorg (the cursor's block is no longer on the
// node's chain) is undone first: the scan walks back through the blocks it read to where the chains forked, orphans
// the payments above it (a counted one is taken back from its request) and scans the new branch.
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, ConflictError, type Logger } from '@tributary/kit';
import type { OrphanedPayments, PaymentService } from '../payments/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';
import { ChainCursor } from './chain-cursor.entity.js';
import { ScannedBlock } from './scanned-block.entity.js';

/** Blocks read per scan at most, so one scan of a long backlog ends and the next continues from the cursor. */
export const DEFAULT_MAX_BLOCKS_PER_SCAN = 100;

/** How many scanned blocks are kept to find a fork: deeper reorgs stop the watcher for an operator. */
export const SCANNED_BLOCKS_KEPT = 1_000;

export interface ChainWatcherOptions {
  source: BlockSource;
  network: ChainNetwork;
  /** Built with the same network: it refuses a payment for a request made on another. */
  payments: PaymentService;
  maxBlocksPerScan?: number;
  /** Where an output that cannot be recorded, and a reorg, are told. */
  logger?: Pick<Logger, 'warn'>;
  /** Called after each block (the chain watch activity heartbeats here). */
  onBlock?: (height: number) => void;
  now?: () => Date;
}

export interface ReorgUndone extends OrphanedPayments {
  /** The last block both chains share; the scan went on from the block after it. */
  forkHeight: number;
}

export interface ScanResult {
  /** Last block scanned before and after this scan, and the node's tip. */
  fromHeight: number;
  toHeight: number;
  tipHeight: number;
  /** Transfers in the new blocks that pay a request (recorded as payments). */
  found: number;
  /** Payments of earlier blocks, not counted yet, whose confirmations were recounted. */
  recounted: number;
  /** Set when a reorg was undone in this scan. */
  reorg?: ReorgUndone;
}

/** A reorg deeper than the scanned blocks kept: nothing is undone or scanned until an operator looks. */
export class ReorgTooDeepError extends Error {
  constructor(chain: string, height: number) {
    super(`${chain}: the scanned block at ${height} is not on the node's chain, and no block of the last ${SCANNED_BLOCKS_KEPT} scanned is: a reorg deeper than the watcher keeps; check the node`);
    this.name = 'ReorgTooDeepError';
  }
}

export class ChainWatcher {
  private readonly maxBlocks: number;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    private readonly options: ChainWatcherOptions,
  ) {
    this.maxBlocks = options.maxBlocksPerScan ?? DEFAULT_MAX_BLOCKS_PER_SCAN;
    this.now = options.now ?? (() => new Date());
  }

  get chain(): string {
    return this.options.source.chain;
  }

  /** One scan: a reorg undone, new blocks up to the tip (at most maxBlocksPerScan), then the recount of uncounted payments. */
  async scanOnce(): Promise<ScanResult> {
    const tip = await this.options.source.tipHeight();
    const cursor = await this.cursor(tip);
    const fromHeight = cursor.height;
    let reorg = await this.undoReorg(cursor, tip);
    let found = 0;
    const last = Math.min(tip, cursor.height + this.maxBlocks);
    while (cursor.height < last) {
      const block = await this.options.source.block(cursor.height + 1);
      if (block.parentHash !== cursor.blockHash) {
        // The chain changed under this scan: undo it once, then go on from the fork; a second change waits for the next scan.
        if (reorg) break;
        reorg = await this.undoReorg(cursor, tip);
        if (!reorg) throw new Error(`${this.chain}: block ${block.height}'s parent is not block ${cursor.height}, which the node still has: an inconsistent answer`);
        continue;
      }
      found += await this.recordTransfers(block, tip);
      await this.advance(cursor, block, tip);
      this.options.onBlock?.(block.height);
    }
    const recounted = await this.recountConfirmations(fromHeight, tip);
    await this.save(cursor, { tipHeight: tip, lastError: null });
    return { fromHeight, toHeight: cursor.height, tipHeight: tip, found, recounted, ...(reorg ? { reorg } : {}) };
  }

  /** Records an error (a node down, garbage in its answer) on the chain's cursor, for /readyz and GraphQL. */
  async recordError(error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.em.nativeUpdate(ChainCursor, { chain: this.options.source.chain }, { lastError: message.slice(0, 2_000), updatedAt: this.now() });
  }

  /**
   * The chain's cursor. The first scan (or the first after CRYPTO_NETWORK changed) starts at the node's tip: blocks
   * mined before the watcher first looked are not read (README Decisions, "Chain watchers").
   */
  private async cursor(tip: number): Promise<ChainCursor> {
    const { source, network } = this.options;
    // Not managed: the cursor is written with native updates only (see save).
    const stored = await this.em.findOne(ChainCursor, { chain: source.chain }, { disableIdentityMap: true });
    if (stored && stored.network === network) return stored;
    const tipHash = await source.blockHash(tip);
    await this.em.nativeDelete(ScannedBlock, { chain: source.chain });
    await this.keepScanned(tip, tipHash);
    const fields = { chain: source.chain, network, height: tip, blockHash: tipHash, tipHeight: tip, lastError: null, updatedAt: this.now() };
    if (stored) return this.save(stored, fields);
    const created = this.em.create(ChainCursor, fields);
    await this.em.flush();
    this.em.clear();
    return created;
  }

  /** If the cursor's block is no longer on the node's chain: back to the fork, its payments above orphaned. */
  private async undoReorg(cursor: ChainCursor, tip: number): Promise<ReorgUndone | undefined> {
    const { source, payments } = this.options;
    if (cursor.height <= tip && (await source.blockHash(cursor.height)) === cursor.blockHash) return undefined;
    const fork = await this.findFork(Math.min(cursor.height, tip));
    if (!fork) throw new ReorgTooDeepError(source.chain, cursor.height);
    const undone = await payments.orphanBlocksAbove(source.chain, fork.height);
    await this.em.nativeDelete(ScannedBlock, { chain: source.chain, height: { $gt: fork.height } });
    await this.save(cursor, { height: fork.height, blockHash: fork.hash });
    this.options.logger?.warn({ chain: source.chain, from: cursor.height, forkHeight: fork.height, ...undone }, 'chain reorg undone');
    return { forkHeight: fork.height, ...undone };
  }

  /** The highest scanned block the node still has at its height. */
  private async findFork(fromHeight: number): Promise<ScannedBlock | undefined> {
    const { source } = this.options;
    const scanned = await this.em.find(ScannedBlock, { chain: source.chain, height: { $lte: fromHeight } }, { orderBy: { height: 'desc' }, limit: SCANNED_BLOCKS_KEPT });
    for (const block of scanned) {
      if ((await source.blockHash(block.height)) === block.hash) return block;
    }
    return undefined;
  }

  private async advance(cursor: ChainCursor, block: ChainBlock, tip: number): Promise<void> {
    await this.keepScanned(block.height, block.hash);
    await this.save(cursor, { height: block.height, blockHash: block.hash, tipHeight: tip });
  }

  /** Remembers a scanned block (a re-read overwrites it) and forgets those older than SCANNED_BLOCKS_KEPT. */
  private async keepScanned(height: number, hash: string): Promise<void> {
    const connection = this.em.getConnection();
    const { chain } = this.options.source;
    await connection.execute('insert into "scanned_blocks" ("chain", "height", "hash") values (?, ?, ?) on conflict ("chain", "height") do update set "hash" = excluded."hash"', [chain, height, hash]);
    if (height % 100 === 0) await connection.execute('delete from "scanned_blocks" where "chain" = ? and "height" <= ?', [chain, height - SCANNED_BLOCKS_KEPT]);
  }

  /**
   * Writes the cursor with one UPDATE and lets go of every entity this EntityManager holds. PaymentService.record's
   * transactions run on forks of it that copy its identity map in and merge theirs back out, so a scan that kept them
   * would compare every request and payment recorded so far on each later payment and flush: a scan's cost would grow
   * with the square of its payments (the chain-scan benchmarks). The cursor object stays the scan's own copy.
   */
  private async save(cursor: ChainCursor, fields: Partial<Pick<ChainCursor, 'network' | 'height' | 'blockHash' | 'tipHeight' | 'lastError'>>): Promise<ChainCursor> {
    Object.assign(cursor, fields, { updatedAt: this.now() });
    const { chain, network, height, blockHash, tipHeight, lastError, updatedAt } = cursor;
    await this.em.nativeUpdate(ChainCursor, { chain }, { network, height, blockHash, tipHeight, lastError, updatedAt });
    this.em.clear();
    return cursor;
  }

  /** The block's transfers that pay a request of this chain and network, each recorded. */
  private async recordTransfers(block: ChainBlock, tip: number): Promise<number> {
    const paying = await this.transfersToRequests(block.transfers);
    const { source } = this.options;
    const found = source.succeeded && paying.length > 0 ? await source.succeeded(block, paying) : paying;
    for (const transfer of found) {
      await this.record(transfer, { height: block.height, hash: block.hash }, tip - block.height + 1);
    }
    return found.length;
  }

  private async transfersToRequests(transfers: BlockTransfer[]): Promise<BlockTransfer[]> {
    if (transfers.length === 0) return [];
    const rows = await this.em.getConnection().execute<Array<{ address: string }>>(
      'select distinct "address" from "payment_requests" where "chain" = ? and "network" = ? and "address" in (?)',
      [this.options.source.chain, this.options.network, [...new Set(transfers.map((t) => t.address))]],
    );
    const watched = new Set(rows.map((row) => row.address));
    return transfers.filter((transfer) => watched.has(transfer.address));
  }

  /**
   * Payments found by earlier scans (in blocks up to `scannedBefore`) that are not counted yet: their confirmations
   * from the block they are in. Those of this scan's blocks were recorded with the current tip already; orphaned
   * ones have no block.
   */
  private async recountConfirmations(scannedBefore: number, tip: number): Promise<number> {
    const pending = await this.em.getConnection().execute<Array<{ txid: string; output_index: number; address: string; amount: string; block_height: number; block_hash: string }>>(
      `select p."txid", p."output_index", p."address", p."amount"::text as "amount", p."block_height", p."block_hash"
       from "payments" p join "payment_requests" r on r."id" = p."payment_request_id"
       where p."chain" = ? and r."network" = ? and not p."counted" and p."block_height" <= ?`,
      [this.options.source.chain, this.options.network, scannedBefore],
    );
    for (const row of pending) {
      const transfer = { txid: row.txid, index: row.output_index, address: row.address, amount: row.amount };
      await this.record(transfer, { height: row.block_height, hash: row.block_hash }, tip - row.block_height + 1);
    }
    return pending.length;
  }

  /** Records (or re-records) one transfer. An address two legacy requests share cannot be attributed: left to `pay`. */
  private async record(transfer: BlockTransfer, block: { height: number; hash: string }, confirmations: number): Promise<void> {
    const { source, payments, logger } = this.options;
    try {
      await payments.record({ chain: source.chain, txid: transfer.txid, index: transfer.index, amount: transfer.amount, confirmations, block, to: { address: transfer.address } });
      // What the payment's transaction merged back is let go at once (see save): the next payment starts clean.
      this.em.clear();
    } catch (error) {
      if (!(error instanceof ConflictError) && !(error instanceof BusinessRuleError)) throw error;
      logger?.warn({ chain: source.chain, txid: transfer.txid, index: transfer.index, err: error }, 'a chain transfer to a payment request was not recorded');
    }
  }
}
