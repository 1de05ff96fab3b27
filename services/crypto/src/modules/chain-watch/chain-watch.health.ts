// How each watched chain's watcher stands (issue 12 §4), from its cursor row: the node's tip and the scan's height as
// last seen, the lag in blocks, the last error, and whether it is healthy — for /readyz (informational: the gateway
// still takes requests while a node is down) and GraphQL `chainWatchers`.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReadinessCheck } from '@tributary/kit';
import type { Chain } from '../assets/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import { ChainCursor } from './chain-cursor.entity.js';
import { CHAIN_STALE_AFTER_POLLS } from './chain-watch.config.js';

/** A watcher that has not written its cursor for this long (at the least) is unhealthy, even without an error. */
const MIN_STALE_AFTER_MS = 60_000;

export const NOT_STARTED_MESSAGE = 'no scan has completed yet';

export interface ChainWatchStatus {
  chain: Chain;
  network: ChainNetwork;
  tipHeight: number | null;
  cursorHeight: number | null;
  lagBlocks: number | null;
  lastError: string | null;
  updatedAt: Date | null;
  healthy: boolean;
}

export interface ChainWatchHealthOptions {
  /** The watched chains (those with a node configured). */
  chains: readonly Chain[];
  network: ChainNetwork;
  pollIntervalMs: number;
  now?: () => Date;
}

export class ChainWatchHealth {
  private readonly staleAfterMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    private readonly options: ChainWatchHealthOptions,
  ) {
    this.staleAfterMs = Math.max(MIN_STALE_AFTER_MS, options.pollIntervalMs * CHAIN_STALE_AFTER_POLLS);
    this.now = options.now ?? (() => new Date());
  }

  async statuses(): Promise<ChainWatchStatus[]> {
    if (this.options.chains.length === 0) return [];
    const cursors = await this.em.fork().find(ChainCursor, { chain: { $in: [...this.options.chains] } });
    return this.options.chains.map((chain) => this.status(chain, cursors.find((c) => c.chain === chain)));
  }

  /** One informational readiness check per watched chain, `chain:<chain>`, failing while it is unhealthy. */
  readinessChecks(): ReadinessCheck[] {
    return this.options.chains.map((chain) => ({
      name: `chain:${chain}`,
      informational: true,
      check: async () => {
        const status = (await this.statuses()).find((s) => s.chain === chain);
        if (!status?.healthy) throw new Error(`${chain} watcher unhealthy: ${status?.lastError ?? 'stale'}`);
      },
    }));
  }

  private status(chain: Chain, cursor: ChainCursor | undefined): ChainWatchStatus {
    const { network } = this.options;
    // A cursor of another network is the watcher before a switch: nothing of this network was scanned yet.
    if (!cursor || cursor.network !== network) {
      return { chain, network, tipHeight: null, cursorHeight: null, lagBlocks: null, lastError: NOT_STARTED_MESSAGE, updatedAt: null, healthy: false };
    }
    const fresh = this.now().getTime() - cursor.updatedAt.getTime() <= this.staleAfterMs;
    return {
      chain,
      network,
      tipHeight: cursor.tipHeight,
      cursorHeight: cursor.height,
      lagBlocks: Math.max(0, cursor.tipHeight - cursor.height),
      lastError: cursor.lastError ?? (fresh ? null : `no scan for ${Math.round(this.staleAfterMs / 1000)} s`),
      updatedAt: cursor.updatedAt,
      healthy: fresh && cursor.lastError === null,
    };
  }
}
