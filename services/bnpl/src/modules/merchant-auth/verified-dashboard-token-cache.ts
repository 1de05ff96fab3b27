// Dashboard tokens verified within the last few seconds, so a dashboard's requests do not each read the token row
// (the sales page's one statement was two). Keyed by the token's SHA-256, which the request computes anyway; no token
// is kept. Only usable tokens are remembered, with their expiry: an expiry is honoured to the millisecond on every
// request. Revocation (logout): the process that revokes forgets the token at once (DashboardLoginService.logout);
// any other process (another instance, an operator command) keeps accepting it for at most the TTL, 5 seconds — the
// same delay as API keys' (VerifiedApiKeyCache). Concurrent requests with one token share one lookup.
import { LRUCache } from 'lru-cache';
import { shortLivedCacheOptions } from '../../short-lived-cache.js';
import type { DashboardTokenCredential } from './dashboard-token.repository.js';

export const VERIFIED_DASHBOARD_TOKEN_TTL_MS = 5_000;
export const VERIFIED_DASHBOARD_TOKEN_CACHE_SIZE = 10_000;

export interface VerifiedDashboardTokenCacheOptions {
  ttlMs?: number;
  /** A millisecond clock (any origin); injected in tests. */
  now?: () => number;
}

export class VerifiedDashboardTokenCache {
  private readonly entries: LRUCache<string, DashboardTokenCredential, () => Promise<DashboardTokenCredential>>;

  constructor(options: VerifiedDashboardTokenCacheOptions = {}) {
    this.entries = new LRUCache({
      ...shortLivedCacheOptions({ max: VERIFIED_DASHBOARD_TOKEN_CACHE_SIZE, ttlMs: options.ttlMs ?? VERIFIED_DASHBOARD_TOKEN_TTL_MS, now: options.now }),
      // The lookup to run on a miss travels as the fetch's context; a rejection is not stored.
      fetchMethod: (_hash, _stale, { context }) => context(),
    });
  }

  /**
   * The token's credential from the cache, else from `verify` (remembered when it resolves: `verify` rejects for an
   * unknown or revoked token). Concurrent calls for one token share one `verify`.
   */
  async verifyOnce(tokenHash: string, verify: () => Promise<DashboardTokenCredential>): Promise<DashboardTokenCredential> {
    return (await this.entries.fetch(tokenHash, { context: verify }))!;
  }

  /** Drops the token (called when it is revoked). */
  forget(tokenId: string): void {
    const hashes = [...this.entries.entries()].filter(([, token]) => token.id === tokenId).map(([hash]) => hash);
    for (const hash of hashes) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
