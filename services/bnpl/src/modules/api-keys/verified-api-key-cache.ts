// Verified API key pairs, remembered briefly so a bcrypt comparison (tens of milliseconds) is not on every KEYS
// request's path. Keyed by SHA-256 of public key + secret key, so a different secret never hits another's entry and
// no secret is kept in memory. Only successful verifications are remembered. One verification per pair at a time
// (verifyOnce): when an entry ends under load, the requests that arrive meanwhile wait for that one bcrypt instead of
// each starting their own (the widget-session-create benchmark measured 10 concurrent compares per expiry otherwise).
// Revocation: the process that revokes a key forgets its entries at once (ApiKeyService.revoke); any other process
// (another instance) keeps accepting it for at most the TTL, 5 seconds.
import { sha256Hex } from '@tributary/kit';
import type { ApiKeyEnvironment } from './api-key.entity.js';

export const VERIFIED_API_KEY_TTL_MS = 5_000;
export const VERIFIED_API_KEY_CACHE_SIZE = 10_000;

export interface VerifiedApiKey {
  apiKeyId: string;
  merchantId: string;
  environment: ApiKeyEnvironment;
}

export interface VerifiedApiKeyCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** Milliseconds since the epoch; injected in tests. */
  now?: () => number;
}

/** A least-recently-used map with a time to live (a Map keeps insertion order: the first entry is the oldest). */
export class VerifiedApiKeyCache {
  private readonly entries = new Map<string, { key: VerifiedApiKey; until: number }>();
  private readonly verifying = new Map<string, Promise<VerifiedApiKey>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: VerifiedApiKeyCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? VERIFIED_API_KEY_TTL_MS;
    this.maxEntries = options.maxEntries ?? VERIFIED_API_KEY_CACHE_SIZE;
    this.now = options.now ?? Date.now;
  }

  get(publicKey: string, secretKey: string): VerifiedApiKey | undefined {
    return this.lookup(entryId(publicKey, secretKey));
  }

  /**
   * The pair's key from the cache, else from `verify` (remembered when it succeeds). Concurrent calls for one pair
   * share one `verify`: its result, or its rejection (the same pair gets the same answer).
   */
  verifyOnce(publicKey: string, secretKey: string, verify: () => Promise<VerifiedApiKey>): Promise<VerifiedApiKey> {
    const id = entryId(publicKey, secretKey);
    const cached = this.lookup(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.verifying.get(id);
    if (!pending) {
      pending = verify()
        .then((key) => {
          this.store(id, key);
          return key;
        })
        .finally(() => this.verifying.delete(id));
      this.verifying.set(id, pending);
    }
    return pending;
  }

  private lookup(id: string): VerifiedApiKey | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    if (entry.until <= this.now()) return undefined;
    this.entries.set(id, entry);
    return entry.key;
  }

  remember(publicKey: string, secretKey: string, key: VerifiedApiKey): void {
    this.store(entryId(publicKey, secretKey), key);
  }

  private store(id: string, key: VerifiedApiKey): void {
    this.entries.delete(id);
    this.entries.set(id, { key, until: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops every entry of the key (called when it is revoked). */
  forget(apiKeyId: string): void {
    for (const [id, entry] of this.entries) if (entry.key.apiKeyId === apiKeyId) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}

function entryId(publicKey: string, secretKey: string): string {
  return sha256Hex(`${publicKey}\n${secretKey}`);
}
