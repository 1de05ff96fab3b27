// API keys record when they were last used (GET /api/merchant/v1/account `last_used_at`, GraphQL `lastUsedAt`),
// written at most once a minute per key so authentication is not a write per request.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKey, LAST_USED_RESOLUTION_MS } from '../src/modules/accounts/api-key.entity.js';
import { createMerchant, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
let plaintext: string;
let keyId: string;

beforeAll(async () => {
  h = await startHarness();
  plaintext = (await createMerchant(h, 'Key hygiene', { keyName: 'ci' })).key;
  keyId = plaintext.split('.')[0]!;
});
afterAll(async () => {
  await h?.close();
});

const storedLastUsedAt = async () => (await h.orm.em.fork().findOneOrFail(ApiKey, { keyId })).lastUsedAt;
const readAccount = async (key = plaintext) => {
  const response = await fetch(`${h.service.url}/api/merchant/v1/account`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as { account?: { api_keys: { key_id: string; last_used_at: string | null }[] } } };
};

describe('API key last use', () => {
  it('is null until the key authenticates a request, then the time of that request', async () => {
    expect(await storedLastUsedAt()).toBeNull();
    const before = Date.now();
    const { status, body } = await readAccount();
    expect(status).toBe(200);
    const stored = await storedLastUsedAt();
    expect(stored).not.toBeNull();
    expect(stored!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(stored!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(body.account!.api_keys).toEqual([{ key_id: keyId, name: 'ci', created_at: expect.any(String), last_used_at: stored!.toISOString() }]);
  });

  it('is not rewritten within a minute, and is once it is older than that', async () => {
    const first = await storedLastUsedAt();
    await readAccount();
    expect(await storedLastUsedAt()).toEqual(first);

    const longAgo = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 5000);
    await h.orm.em.fork().nativeUpdate(ApiKey, { keyId }, { lastUsedAt: longAgo });
    await readAccount();
    expect((await storedLastUsedAt())!.getTime()).toBeGreaterThan(longAgo.getTime() + LAST_USED_RESOLUTION_MS);
  });

  it('a refused request (wrong secret) does not count as use', async () => {
    const longAgo = new Date(Date.now() - 10 * LAST_USED_RESOLUTION_MS);
    await h.orm.em.fork().nativeUpdate(ApiKey, { keyId }, { lastUsedAt: longAgo });
    const wrong = `${keyId}.${'x'.repeat(48)}`;
    expect((await readAccount(wrong)).status).toBe(401);
    expect(await storedLastUsedAt()).toEqual(longAgo);
  });

  it('GraphQL cryptoAccount.apiKeys.lastUsedAt reads the same value', async () => {
    const { body } = await gql(h.service.url, '{ cryptoAccount { apiKeys { keyId lastUsedAt } } }', { authorization: `Bearer ${plaintext}` });
    const stored = await storedLastUsedAt();
    expect(body).toEqual({ data: { cryptoAccount: { apiKeys: [{ keyId, lastUsedAt: stored!.toISOString() }] } } });
  });
});
