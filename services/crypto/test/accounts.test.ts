// The accounts module over real HTTP and a real database: API key format and storage, the account route and the
// subgraph's CryptoAccount (the spec's 401 rules on every merchant route are in spec-conformance.test.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKey, generateApiKey, hashSecret, parseBearerApiKey } from '../src/modules/accounts/index.js';
import { DEMO_API_KEY, DEMO_KEY_ID, seedDemoData } from '../src/seed.js';
import { createMerchant, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

describe('API key format', () => {
  it('generates <ck_ + 24>.<48> keys and parses only that shape', () => {
    const { keyId, secret, plaintext } = generateApiKey();
    expect(keyId).toMatch(/^ck_[A-Za-z0-9]{24}$/);
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(parseBearerApiKey(`Bearer ${plaintext}`)).toEqual({ keyId, secret });
    for (const bad of [undefined, '', plaintext, `Basic ${plaintext}`, `Bearer ${keyId}`, `Bearer ${keyId}.${secret}x`, `Bearer xx_${keyId.slice(3)}.${secret}`]) {
      expect(parseBearerApiKey(bad)).toBeNull();
    }
  });

  it('stores only the SHA-256 of the secret', async () => {
    const key = await h.orm.em.fork().findOneOrFail(ApiKey, { keyId: DEMO_KEY_ID });
    expect(key.secretHash).toBe(hashSecret(DEMO_API_KEY.split('.')[1]!));
    expect(JSON.stringify(key)).not.toContain(DEMO_API_KEY.split('.')[1]);
  });
});

describe('GET /api/merchant/v1/account (not in the spec: the caller\'s account for its own dashboard)', () => {
  it('reads the calling account with a valid key', async () => {
    const res = await fetch(`${url}/api/merchant/v1/account`, { headers: { ...auth(DEMO_API_KEY), accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { account: Record<string, unknown> };
    expect(body.account).toMatchObject({ name: 'Demo Merchant', status: 'active', api_keys: [{ key_id: DEMO_KEY_ID }] });
    expect(JSON.stringify(body)).not.toContain(DEMO_API_KEY.split('.')[1]);
  });

});

describe('subgraph', () => {
  const accountQuery = '{ cryptoAccount { id name status createdAt apiKeys { keyId name createdAt } } }';

  it('resolves cryptoAccount for the key owner', async () => {
    const { body } = await gql(url, accountQuery, auth(DEMO_API_KEY));
    expect(body.errors).toBeUndefined();
    expect(body.data?.cryptoAccount).toMatchObject({ name: 'Demo Merchant', status: 'ACTIVE', apiKeys: [{ keyId: DEMO_KEY_ID }] });
  });

  it('refuses cryptoAccount without valid credentials (UNAUTHENTICATED, no data)', async () => {
    for (const headers of [{}, auth('ck_x.y'), auth(generateApiKey().plaintext)]) {
      const { body } = await gql(url, accountQuery, headers);
      expect(body.data?.cryptoAccount ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  describe('_entities', () => {
    const entitiesQuery = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on CryptoAccount { id name } } }`;

    it('resolves the caller\'s own account and hides every other one', async () => {
      const other = await createMerchant(h, 'Other Co');
      const own = await gql(url, '{ cryptoAccount { id } }', auth(DEMO_API_KEY));
      const ownId = (own.body.data?.cryptoAccount as { id: string }).id;
      const reps = [{ __typename: 'CryptoAccount', id: ownId }, { __typename: 'CryptoAccount', id: String(other.accountId) }];
      const { body } = await gql(url, entitiesQuery, auth(DEMO_API_KEY), { reps });
      expect(body.errors).toBeUndefined();
      expect(body.data?._entities).toEqual([{ id: ownId, name: 'Demo Merchant' }, null]);
    });

    it('never returns data to an unauthenticated caller', async () => {
      const { body } = await gql(url, entitiesQuery, {}, { reps: [{ __typename: 'CryptoAccount', id: '1' }] });
      expect(JSON.stringify(body.data ?? null)).not.toContain('Demo Merchant');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});
