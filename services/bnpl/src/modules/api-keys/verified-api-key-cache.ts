// Verified API key pairs, remembered briefly so a bcrypt comparison (tens of milliseconds) is not on every KEYS
// request's path. Keyed by SHA-256 of public key + secret key, so a different secret never hits another's entry and
// no secret is kept in memory. Only successful verifications are remembered. One verification per pair at a time
// (verifyOnce): when an entry ends under load, the requests that arrive meanwhile wait for that one bcrypt instead of
// each starting their own (the widget-session-create benchmark measured 10 concurrent compares per expiry otherwise).
// Revocation: the process that revokes a key forgets its entries at once (ApiKeyService.revoke); any other process
// (another instance) keeps accepting it for at most the TTL, 5 seconds.
// Proofs: when an entry ends, the pair is verified again, but the bcrypt comparison is needed only once per pair and
// stored hash: a secret that matched a stored hash keeps matching it. So the re-verification reads the key (its
// revocation and its stored hash) and skips bcrypt when this pair was already proven against that same hash; an
// attacker without the secret never has a proof (the proof's id is a hash of the pair, secret included).
import { sha256Hex } from '@tributary/kit';
import { LRUCache } from 'lru-cache';
import { shortLivedCacheOptions } from '../../short-lived-cache.js';
import type { ApiKeyEnvironment } from './api-key.entity.js';

export const VERIFIED_API_KEY_TTL_MS = 5_000;
export const VERIFIED_API_KEY_CACHE_SIZE = 10_000;
/** How long a pair's bcrypt match is remembered (re-verifications in between read the key but skip bcrypt). */
export const API_KEY_PROOF_TTL_MS = 60 * 60_000;

export interface VerifiedApiKey {
  apiKeyId: string;
  merchantId: string;
  environment: ApiKeyEnvironment;
}

export interface VerifiedApiKeyCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** A millisecond clock (any origin); injected in tests. */
  now?: () => number;
}

/** Remembered verifications: lru-cache's least-recently-used map with a time to live and one fetch per key at a time. */
export class VerifiedApiKeyCache {
  private readonly entries: LRUCache<string, VerifiedApiKey, () => Promise<VerifiedApiKey>>;
  /** Pair id → the stored secret hash that the pair's secret matched. */
  private readonly proofs: LRUCache<string, string>;

  constructor(options: VerifiedApiKeyCacheOptions = {}) {
    const { now } = options;
    const max = options.maxEntries ?? VERIFIED_API_KEY_CACHE_SIZE;
    this.entries = new LRUCache({
      ...shortLivedCacheOptions({ max, ttlMs: options.ttlMs ?? VERIFIED_API_KEY_TTL_MS, now }),
      // The verification to run on a miss travels as the fetch's context; a rejection is not stored.
      fetchMethod: (_id, _stale, { context }) => context(),
    });
    this.proofs = new LRUCache(shortLivedCacheOptions({ max, ttlMs: API_KEY_PROOF_TTL_MS, now }));
  }

  /** Whether the pair's secret already matched `storedHash` in bcrypt (within the proof TTL). */
  isProven(publicKey: string, secretKey: string, storedHash: string): boolean {
    return this.proofs.get(entryId(publicKey, secretKey)) === storedHash;
  }

  /** Records that the pair's secret matched `storedHash` in bcrypt. */
  recordProof(publicKey: string, secretKey: string, storedHash: string): void {
    this.proofs.set(entryId(publicKey, secretKey), storedHash);
  }

  get(publicKey: string, secretKey: string): VerifiedApiKey | undefined {
    return this.entries.get(entryId(publicKey, secretKey));
  }

  /**
   * The pair's key from the cache, else from `verify` (remembered when it succeeds). Concurrent calls for one pair
   * share one `verify`: its result, or its rejection (the same pair gets the same answer).
   */
  async verifyOnce(publicKey: string, secretKey: string, verify: () => Promise<VerifiedApiKey>): Promise<VerifiedApiKey> {
    return (await this.entries.fetch(entryId(publicKey, secretKey), { context: verify }))!;
  }

  remember(publicKey: string, secretKey: string, key: VerifiedApiKey): void {
    this.entries.set(entryId(publicKey, secretKey), key);
  }

  /** Drops every entry of the key (called when it is revoked). */
  forget(apiKeyId: string): void {
    const ids = [...this.entries.entries()].filter(([, key]) => key.apiKeyId === apiKeyId).map(([id]) => id);
    for (const id of ids) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}

function entryId(publicKey: string, secretKey: string): string {
  return sha256Hex(`${publicKey}\n${secretKey}`);
}
