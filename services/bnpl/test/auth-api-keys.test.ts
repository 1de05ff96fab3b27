// API keys, finished (issue 8 §2 and §9): the principal says whether a key is test or live (`livemode`), and verified
// key pairs are cached briefly so bcrypt is not on every request's path, without letting a revoked key live on:
// revoked in this process → refused on the next request; revoked elsewhere → refused once the 5-second entry ends.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKey, ApiKeyService, VERIFIED_API_KEY_TTL_MS, VerifiedApiKeyCache } from '../src/modules/api-keys/index.js';
import { MerchantAuthService } from '../src/modules/merchant-auth/index.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let shop: TestMerchant;

beforeAll(async () => {
  h = await startHarness();
  shop = await createMerchant(h, 'Key Cache Shop');
});
afterAll(async () => {
  await h?.close();
});

const dashboard = () => ({ merchantId: shop.merchant.id, merchantUserId: shop.user.id, tokenId: 'n/a', kind: 'dashboard' as const });

async function newKey(environment: 'test' | 'live', cache?: VerifiedApiKeyCache) {
  const created = await new ApiKeyService(h.orm.em.fork(), cache).create(dashboard(), { name: `${environment} key`, environment });
  return { id: created.key.id, publicKey: created.key.publicKey, authorization: `Bearer ${created.secretKey}` };
}

describe('the API key principal', () => {
  it('carries the environment and livemode: false for a test key, true for a live key', async () => {
    const auth = new MerchantAuthService(h.orm.em.fork());
    const test = await newKey('test');
    const live = await newKey('live');
    expect(await auth.authenticateApiKey(test.authorization, test.publicKey)).toEqual({ kind: 'api_key', merchantId: shop.merchant.id, apiKeyId: test.id, environment: 'test', livemode: false });
    expect(await auth.authenticateApiKey(live.authorization, live.publicKey)).toEqual({ kind: 'api_key', merchantId: shop.merchant.id, apiKeyId: live.id, environment: 'live', livemode: true });
    // The same from the cache.
    expect(await auth.authenticateApiKey(live.authorization, live.publicKey)).toMatchObject({ environment: 'live', livemode: true });
  });
});

describe('verified-key cache', () => {
  it('answers a verified pair from memory: with the row changed underneath, it still authenticates within the TTL', async () => {
    // The documented revocation delay for other processes: at most 5 seconds.
    expect(VERIFIED_API_KEY_TTL_MS).toBeLessThanOrEqual(5_000);
    let now = 1_000_000;
    const cache = new VerifiedApiKeyCache({ now: () => now });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedApiKeys: cache });
    const key = await newKey('test');
    await auth.authenticateApiKey(key.authorization, key.publicKey);
    // Another process revokes it (no in-process notice): the cached entry stands until its TTL ends…
    await h.orm.em.fork().nativeUpdate(ApiKey, { id: key.id }, { revokedAt: new Date() });
    now += VERIFIED_API_KEY_TTL_MS;
    expect(await auth.authenticateApiKey(key.authorization, key.publicKey)).toMatchObject({ apiKeyId: key.id });
    // …and no longer: the next request reads the database and is refused.
    now += 1;
    await expect(auth.authenticateApiKey(key.authorization, key.publicKey)).rejects.toMatchObject({ kind: 'authentication' });
  });

  it('a revocation through ApiKeyService (the DELETE route) drops the entry at once', async () => {
    const cache = new VerifiedApiKeyCache({ now: () => 0 });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedApiKeys: cache });
    const key = await newKey('live', cache);
    const other = await newKey('live', cache);
    await auth.authenticateApiKey(key.authorization, key.publicKey);
    await auth.authenticateApiKey(other.authorization, other.publicKey);
    expect(cache.size).toBe(2);
    await new ApiKeyService(h.orm.em.fork(), cache).revoke(dashboard(), key.id);
    expect(cache.size).toBe(1);
    await expect(auth.authenticateApiKey(key.authorization, key.publicKey)).rejects.toMatchObject({ kind: 'authentication' });
    expect(await auth.authenticateApiKey(other.authorization, other.publicKey)).toMatchObject({ apiKeyId: other.id });
  });

  it('a cached public key with another secret is still checked (and refused); failures are not cached', async () => {
    const cache = new VerifiedApiKeyCache({ now: () => 0 });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedApiKeys: cache });
    const key = await newKey('test');
    await auth.authenticateApiKey(key.authorization, key.publicKey);
    await expect(auth.authenticateApiKey(`Bearer sk_test_${'x'.repeat(48)}`, key.publicKey)).rejects.toMatchObject({ kind: 'authentication' });
    await expect(auth.authenticateApiKey(undefined, key.publicKey)).rejects.toMatchObject({ kind: 'authentication' });
    expect(cache.size).toBe(1);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new VerifiedApiKeyCache({ maxEntries: 2, now: () => 0 });
    const entry = (id: string) => ({ apiKeyId: id, merchantId: 'm', environment: 'test' as const });
    cache.remember('pk_a', 'sk', entry('a'));
    cache.remember('pk_b', 'sk', entry('b'));
    expect(cache.get('pk_a', 'sk')?.apiKeyId).toBe('a'); // a is now the most recent
    cache.remember('pk_c', 'sk', entry('c'));
    expect([cache.get('pk_a', 'sk')?.apiKeyId, cache.get('pk_b', 'sk'), cache.get('pk_c', 'sk')?.apiKeyId]).toEqual(['a', undefined, 'c']);
  });
});

describe('over HTTP (the running service shares one cache between authentication and the DELETE route)', () => {
  it('a key used a moment ago is refused on the very next request after DELETE', async () => {
    const created = await fetch(`${h.service.url}/api/v1/merchant/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Revoked soon', environment: 'test' }),
    });
    const key = (await created.json()) as { id: string; public_key: string; secret_key: string };
    const headers = { authorization: `Bearer ${key.secret_key}`, 'x-merchant-public-key': key.public_key };
    // Twice: the second answer comes from the cache.
    for (let i = 0; i < 2; i += 1) expect((await gql(h.service.url, '{ bnplMerchant { name } }', headers)).body.data?.bnplMerchant).toEqual({ name: 'Key Cache Shop' });
    expect((await fetch(`${h.service.url}/api/v1/merchant/api-keys/${key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${shop.token}` } })).status).toBe(204);
    const after = await gql(h.service.url, '{ bnplMerchant { name } }', headers);
    expect(after.body.data?.bnplMerchant ?? null).toBeNull();
    expect(after.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
