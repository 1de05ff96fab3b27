// Each merchant's enabled plans, remembered briefly for the widget-session create, which checks the amount against them
// on every call (the merchant's hottest API path; the read was one of its seven statements). A switch made in this
// process (PlanService) forgets the merchant's entry at once; a switch made by another instance is seen within the TTL.
// Checkout never reads through this cache: it decides eligibility from the plans as they are when the shopper confirms,
// so a plan switched off seconds ago can let a session be created but never lets a loan be booked on it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { MerchantPlan } from './merchant-plan.entity.js';
import { shortLivedCacheOptions } from '../../short-lived-cache.js';
import type { InstallmentPlan } from './plan-catalogue.js';

export const ENABLED_PLANS_TTL_MS = 5_000;
export const ENABLED_PLANS_CACHE_SIZE = 10_000;

export interface EnabledPlansCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** A millisecond clock (any origin); injected in tests. */
  now?: () => number;
}

export class EnabledPlansCache {
  private readonly entries: LRUCache<string, readonly InstallmentPlan[]>;

  /** `em` resolves to the request's EntityManager (orm.em) when a miss reads the database. */
  constructor(em: EntityManager, options: EnabledPlansCacheOptions = {}) {
    this.entries = new LRUCache<string, readonly InstallmentPlan[]>({
      ...shortLivedCacheOptions({ max: options.maxEntries ?? ENABLED_PLANS_CACHE_SIZE, ttlMs: options.ttlMs ?? ENABLED_PLANS_TTL_MS, now: options.now }),
      // Concurrent misses for one merchant share one read.
      fetchMethod: (merchantId) => em.getRepository(MerchantPlan).enabledFor(merchantId),
    });
  }

  /** The merchant's enabled plans, in catalogue order, as of at most the TTL ago (or just switched in this process). */
  async enabledFor(merchantId: string): Promise<readonly InstallmentPlan[]> {
    return (await this.entries.fetch(merchantId))!;
  }

  /** Called after a switch commits. */
  forget(merchantId: string): void {
    this.entries.delete(merchantId);
  }
}
