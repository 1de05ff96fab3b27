// The settings bnpl's per-process caches share (verified API keys and their bcrypt proofs, verified dashboard tokens,
// enabled plans): lru-cache bounded by count, every entry ending a fixed time after it was stored.

export interface ShortLivedCacheSettings {
  max: number;
  ttlMs: number;
  /** A millisecond clock (any origin); injected in tests. */
  now?: (() => number) | undefined;
}

/** lru-cache options for `settings`; spread them beside the cache's own (a fetchMethod). */
export function shortLivedCacheOptions({ max, ttlMs, now }: ShortLivedCacheSettings): { max: number; ttl: number; ttlResolution: number; perf?: { now(): number } } {
  return {
    max,
    ttl: ttlMs,
    ...(now ? { perf: { now } } : {}),
    // Read the clock on every lookup (the default caches it for a millisecond behind a timer), so an entry ends on time.
    ttlResolution: 0,
  };
}
