// The chain watch workflow's activity (contract: ChainWatchActivities in @tributary/workflows): one ChainWatcher scan
// of the chain's node, a heartbeat per block, and any failure recorded on the chain's cursor before Temporal retries it.
import type { MikroORM } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import type { Logger } from '@tributary/kit';
import type { ChainWatchActivities, ScanChainResult } from '@tributary/workflows';
import type { Chain } from '../assets/index.js';
import type { PaymentService } from '../payments/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import type { BlockSource } from './block-source.js';
import { ChainWatcher } from './chain-watcher.js';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface ChainWatchActivitiesDeps {
  orm: MikroORM;
  /** The watched chains' nodes (chain-watch.config.ts `blockSources`). */
  sources: ReadonlyMap<Chain, BlockSource>;
  network: ChainNetwork;
  /** The payment domain with the service's event sink and outbox, on the scan's EntityManager. */
  payments: (em: EntityManager) => PaymentService;
  logger: Pick<Logger, 'warn'>;
  /** Tells Temporal the scan is alive; default: the running activity's heartbeat. */
  heartbeat?: (height: number) => void;
}

export function createChainWatchActivities(deps: ChainWatchActivitiesDeps): ChainWatchActivities {
  const heartbeat = deps.heartbeat ?? ((height: number) => Context.current().heartbeat(height));
  return {
    async scanChain({ chain }): Promise<ScanChainResult> {
      const source = deps.sources.get(chain as Chain);
      // Retried like a node that is down: the worker's configuration may be fixed and the worker restarted.
      if (!source) throw new Error(`no node is configured for ${chain} on this worker (its CRYPTO_<ASSET>_RPC_URL is not set)`);
      const em = deps.orm.em.fork();
      const watcher = new ChainWatcher(em, { source, network: deps.network, payments: deps.payments(em), logger: deps.logger, onBlock: heartbeat });
      try {
        const { fromHeight, toHeight, tipHeight, found, reorg } = await watcher.scanOnce();
        return { fromHeight, toHeight, tipHeight, found, ...(reorg ? { forkHeight: reorg.forkHeight } : {}) };
      } catch (error) {
        await watcher.recordError(error).catch((recordError: unknown) => deps.logger.warn({ chain, err: recordError }, 'could not record the chain watcher error'));
        throw error;
      }
    },
  };
}
