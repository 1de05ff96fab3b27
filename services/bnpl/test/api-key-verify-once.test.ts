// One verification per API key pair at a time (found by the widget-session-create benchmark): when a cached pair's
// entry ends under load, the requests arriving meanwhile share the one bcrypt comparison in flight instead of
// each starting their own; a shared failure is a failure for every waiter, and failures are never remembered.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKey, VERIFIED_API_KEY_TTL_MS, VerifiedApiKeyCache, type VerifiedApiKey } from '../src/modules/api-keys/index.js';
import { MerchantAuthService } from '../src/modules/merchant-auth/index.js';
import { createApiKey, createMerchant, startHarness, type Harness } from './helpers.js';

const key = (id: string): VerifiedApiKey => ({ apiKeyId: id, merchantId: 'm', environment: 'test' });

/** A verification that resolves (or rejects) when the test says so, counting its calls. */
function gate() {
  let calls = 0;
  let settle: { resolve: (k: VerifiedApiKey) => void; reject: (e: Error) => void } | undefined;
  const verify = () => {
    calls += 1;
    return new Promise<VerifiedApiKey>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { verify, calls: () => calls, resolve: (k: VerifiedApiKey) => settle!.resolve(k), reject: (e: Error) => settle!.reject(e) };
}

describe('VerifiedApiKeyCache.verifyOnce', () => {
  it('runs one verification for concurrent calls with the same pair, then answers from the cache', async () => {
    const cache = new VerifiedApiKeyCache({ now: () => 0 });
    const g = gate();
    const waiting = Array.from({ length: 10 }, () => cache.verifyOnce('pk_a', 'sk_a', g.verify));
    expect(g.calls()).toBe(1);
    g.resolve(key('a'));
    expect((await Promise.all(waiting)).map((k) => k.apiKeyId)).toEqual(Array(10).fill('a'));
    expect(await cache.verifyOnce('pk_a', 'sk_a', g.verify)).toEqual(key('a'));
    expect(g.calls()).toBe(1);
  });

  it('gives every waiter the shared failure and remembers nothing, so the next call verifies again', async () => {
    const cache = new VerifiedApiKeyCache({ now: () => 0 });
    const g = gate();
    const waiting = Array.from({ length: 3 }, () => cache.verifyOnce('pk_a', 'sk_wrong', g.verify));
    g.reject(new Error('wrong secret'));
    for (const w of waiting) await expect(w).rejects.toThrow('wrong secret');
    expect(cache.size).toBe(0);
    const again = cache.verifyOnce('pk_a', 'sk_wrong', g.verify);
    expect(g.calls()).toBe(2);
    g.reject(new Error('still wrong'));
    await expect(again).rejects.toThrow('still wrong');
  });

  it('never shares between different pairs (another secret for the same public key verifies on its own)', async () => {
    const cache = new VerifiedApiKeyCache({ now: () => 0 });
    const right = gate();
    const wrong = gate();
    const a = cache.verifyOnce('pk_a', 'sk_right', right.verify);
    const b = cache.verifyOnce('pk_a', 'sk_other', wrong.verify);
    expect([right.calls(), wrong.calls()]).toEqual([1, 1]);
    right.resolve(key('a'));
    wrong.reject(new Error('refused'));
    await expect(a).resolves.toEqual(key('a'));
    await expect(b).rejects.toThrow('refused');
  });

  it('verifies again once the entry has expired', async () => {
    let now = 1_000;
    const cache = new VerifiedApiKeyCache({ ttlMs: 5_000, now: () => now });
    const g = gate();
    const first = cache.verifyOnce('pk_a', 'sk_a', g.verify);
    g.resolve(key('a'));
    await first;
    now += 5_001;
    const second = cache.verifyOnce('pk_a', 'sk_a', g.verify);
    expect(g.calls()).toBe(2);
    g.resolve(key('a'));
    await expect(second).resolves.toEqual(key('a'));
  });
});

describe('MerchantAuthService under a burst of one key pair', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('authenticates every concurrent request and refuses every concurrent wrong secret', async () => {
    const shop = await createMerchant(h, 'Burst Shop');
    const pair = await createApiKey(h, shop, 'live');
    const cache = new VerifiedApiKeyCache();
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedApiKeys: cache });
    const principals = await Promise.all(Array.from({ length: 10 }, () => auth.authenticateApiKey(`Bearer ${pair.secretKey}`, pair.publicKey)));
    expect(new Set(principals.map((p) => JSON.stringify(p))).size).toBe(1);
    expect(principals[0]).toEqual({ kind: 'api_key', merchantId: shop.merchant.id, apiKeyId: pair.key.id, environment: 'live', livemode: true });
    const refused = await Promise.allSettled(Array.from({ length: 5 }, () => auth.authenticateApiKey(`Bearer sk_live_${'x'.repeat(48)}`, pair.publicKey)));
    expect(refused.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(cache.size).toBe(1);
    await expect(auth.authenticateApiKey(`Bearer ${pair.secretKey}`, undefined)).rejects.toMatchObject({ kind: 'authentication' });
  });

  it('re-verifies an expired pair from the key row: bcrypt is proven once per stored hash, a revocation elsewhere still refuses', async () => {
    const shop = await createMerchant(h, 'Proof Shop');
    const pair = await createApiKey(h, shop, 'test');
    let now = 1_000;
    const cache = new VerifiedApiKeyCache({ now: () => now });
    // A fresh EntityManager per request, as the service's request context gives.
    const authenticate = (secretKey: string) => new MerchantAuthService(h.orm.em.fork(), { verifiedApiKeys: cache }).authenticateApiKey(`Bearer ${secretKey}`, pair.publicKey);
    await authenticate(pair.secretKey);
    expect(cache.isProven(pair.publicKey, pair.secretKey, pair.key.secretKeyHash)).toBe(true);
    expect(cache.isProven(pair.publicKey, pair.secretKey, '$2b$10$another.stored.hash')).toBe(false);
    await expect(authenticate(`sk_test_${'x'.repeat(48)}`)).rejects.toMatchObject({ kind: 'authentication' });
    expect(cache.isProven(pair.publicKey, `sk_test_${'x'.repeat(48)}`, pair.key.secretKeyHash)).toBe(false);

    now += VERIFIED_API_KEY_TTL_MS + 1;
    await expect(authenticate(pair.secretKey)).resolves.toMatchObject({ apiKeyId: pair.key.id });
    // Revoked by another instance: this process's cache is not told, and the proof does not outlive the row's state.
    await h.orm.em.fork().nativeUpdate(ApiKey, { id: pair.key.id }, { revokedAt: new Date() });
    now += VERIFIED_API_KEY_TTL_MS + 1;
    await expect(authenticate(pair.secretKey)).rejects.toMatchObject({ kind: 'authentication' });
  });
});
