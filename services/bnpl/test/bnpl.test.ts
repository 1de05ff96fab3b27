import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { ApiKey, PUBLIC_KEY_PATTERN, SECRET_KEY_PATTERN, generateKeyPair } from '../src/modules/api-keys/index.js';
import { DashboardToken, generateDashboardToken, hashDashboardToken } from '../src/modules/merchant-auth/index.js';
import { Merchant } from '../src/modules/merchants/index.js';
import { DEMO_DASHBOARD_TOKEN, DEMO_PUBLIC_KEY, DEMO_SECRET_KEY, seedDemoData } from '../src/seed.js';
import { createMerchant as createTestMerchant, gql, ownSchemaDiff, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

const createMerchant = (name: string, token?: Parameters<typeof createTestMerchant>[2]) => createTestMerchant(h, name, token);

describe('credentials', () => {
  it('generates pk_<env>_ and sk_<env>_ keys and dashboard tokens of the documented shapes', () => {
    const pair = generateKeyPair('test');
    expect(pair.publicKey).toMatch(PUBLIC_KEY_PATTERN);
    expect(pair.secretKey).toMatch(SECRET_KEY_PATTERN);
    expect(pair.publicKey.startsWith('pk_test_')).toBe(true);
    expect(generateKeyPair('live').secretKey.startsWith('sk_live_')).toBe(true);
    expect(generateDashboardToken()).toMatch(/^dt_[A-Za-z0-9]{48}$/);
  });

  it('spec "public_key … begins with a pk_ prefix followed by the environment word": the keys issued have the length and pattern the OpenAPI document states', async () => {
    const owner = await createMerchant('Key Shape Shop');
    const res = await fetch(`${url}/api/v1/merchant/api-keys`, { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shape', environment: 'live' }) });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, string>;
    const document = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as { components: { schemas: Record<string, { properties: Record<string, { description: string; pattern?: string }> }> } };
    const documented = document.components.schemas.BnplCreatedApiKey!.properties;
    for (const [field, prefix] of [['public_key', 'pk_live_'], ['secret_key', 'sk_live_']] as const) {
      const length = Number(/\+ (\d+) characters/.exec(documented[field]!.description)?.[1]);
      expect({ field, key: created[field] }).toEqual({ field, key: expect.stringMatching(new RegExp(`^${prefix}[A-Za-z0-9]{${length}}$`)) });
      expect(created[field]).toMatch(new RegExp(documented[field]!.pattern!));
    }
    // Keys already issued keep working: the seeded demo key has the same shape.
    expect(DEMO_PUBLIC_KEY).toMatch(new RegExp(documented.public_key!.pattern!));
  });

  it('stores only a bcrypt hash of the secret key and SHA-256 of dashboard tokens', async () => {
    const em = h.orm.em.fork();
    const key = await em.findOneOrFail(ApiKey, { publicKey: DEMO_PUBLIC_KEY });
    expect(key.secretKeyHash).toMatch(/^\$2[aby]\$10\$/);
    expect(await bcrypt.compare(DEMO_SECRET_KEY, key.secretKeyHash)).toBe(true);
    expect(await em.count(DashboardToken, { tokenHash: hashDashboardToken(DEMO_DASHBOARD_TOKEN) })).toBe(1);
  });
});

describe('database', () => {
  it('the checked-in migrations create exactly the schema the entities describe', async () => {
    expect(await ownSchemaDiff(h.orm)).toEqual([]);
  });

  it('seed is idempotent and restores the demo credentials', async () => {
    const em = h.orm.em.fork();
    await em.nativeUpdate(DashboardToken, { tokenHash: hashDashboardToken(DEMO_DASHBOARD_TOKEN) }, { revokedAt: new Date() });
    const first = await seedDemoData(h.orm.em.fork());
    const second = await seedDemoData(h.orm.em.fork());
    expect(second).toEqual(first);
    expect(await em.count(Merchant, { name: 'Demo Shop' })).toBe(1);
    expect(await em.count(ApiKey, { publicKey: DEMO_PUBLIC_KEY })).toBe(1);
    expect((await fetch(`${url}/api/v1/merchant/api-keys`, { headers: bearer(DEMO_DASHBOARD_TOKEN) })).status).toBe(200);
  });
});

describe('probes', () => {
  it('/healthz and /readyz (database + Temporal) answer 200', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });
});

describe('API keys (dashboard token)', () => {
  it('lists active keys without secrets', async () => {
    const res = await fetch(`${url}/api/v1/merchant/api-keys`, { headers: bearer(DEMO_DASHBOARD_TOKEN) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(body.data).toEqual([expect.objectContaining({ name: 'Demo test key', public_key: DEMO_PUBLIC_KEY, environment: 'test' })]);
    expect(JSON.stringify(body)).not.toMatch(/sk_test_|secret/);
  });

  it('creates a key whose secret is shown once, works with KEYS auth, and stops working once revoked', async () => {
    const other = await createMerchant('Key Shop');
    const created = await fetch(`${url}/api/v1/merchant/api-keys`, {
      method: 'POST',
      headers: { ...bearer(other.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Server', environment: 'live' }),
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; public_key: string; secret_key: string; environment: string };
    expect(key.public_key).toMatch(/^pk_live_/);
    expect(key.secret_key).toMatch(/^sk_live_/);

    const keysAuth = { ...bearer(key.secret_key), 'x-merchant-public-key': key.public_key };
    const viaKeys = await gql(url, '{ bnplMerchant { name } }', keysAuth);
    expect(viaKeys.body.data?.bnplMerchant).toEqual({ name: 'Key Shop' });

    const wrongSecret = await gql(url, '{ bnplMerchant { name } }', { ...keysAuth, ...bearer(DEMO_SECRET_KEY) });
    expect(wrongSecret.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    // Another merchant cannot revoke it.
    expect((await fetch(`${url}/api/v1/merchant/api-keys/${key.id}`, { method: 'DELETE', headers: bearer(DEMO_DASHBOARD_TOKEN) })).status).toBe(404);
    expect((await fetch(`${url}/api/v1/merchant/api-keys/${key.id}`, { method: 'DELETE', headers: bearer(other.token) })).status).toBe(204);
    const afterRevoke = await gql(url, '{ bnplMerchant { name } }', keysAuth);
    expect(afterRevoke.body.data?.bnplMerchant ?? null).toBeNull();
    expect(afterRevoke.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses an invalid body with 422 naming the fields', async () => {
    const res = await fetch(`${url}/api/v1/merchant/api-keys`, {
      method: 'POST',
      headers: { ...bearer(DEMO_DASHBOARD_TOKEN), 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', environment: 'prod' }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string[]> } };
    expect(body.error.code).toBe('validation_failed');
    expect(Object.keys(body.error.fields).sort()).toEqual(['environment', 'name']);
  });

  it('answers the same 401 for missing, malformed, unknown, revoked and expired dashboard tokens, and for API keys', async () => {
    const revoked = await createMerchant('Revoked Shop', { revokedAt: new Date() });
    const expired = await createMerchant('Expired Shop', { expiresAt: new Date(Date.now() - 1000) });
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: bearer('nope'),
      unknown: bearer(generateDashboardToken()),
      revoked: bearer(revoked.token),
      expired: bearer(expired.token),
      secretKeyInsteadOfToken: { ...bearer(DEMO_SECRET_KEY), 'x-merchant-public-key': DEMO_PUBLIC_KEY },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const res = await fetch(`${url}/api/v1/merchant/api-keys`, { headers });
      expect({ name, status: res.status, body: await res.json() }).toEqual({ name, status: 401, body: UNAUTHENTICATED });
    }
  });
});

describe('API keys (GraphQL mutations)', () => {
  it('creates a key whose secret is shown once, and revokes it; an API key pair may not do either', async () => {
    const owner = await createMerchant('Graph Key Shop');
    const created = await gql(url, 'mutation { createBnplApiKey(name: "CI", environment: "live") { secretKey apiKey { id publicKey environment name } } }', bearer(owner.token));
    expect(created.body.errors).toBeUndefined();
    const { secretKey, apiKey } = created.body.data!.createBnplApiKey as { secretKey: string; apiKey: { id: string; publicKey: string; environment: string; name: string } };
    expect(secretKey).toMatch(/^sk_live_[A-Za-z0-9]{48}$/);
    expect(apiKey).toMatchObject({ publicKey: expect.stringMatching(/^pk_live_/), environment: 'live', name: 'CI' });

    const keysAuth = { ...bearer(secretKey), 'x-merchant-public-key': apiKey.publicKey };
    const byKey = await gql(url, 'mutation { createBnplApiKey(name: "sneaky", environment: "test") { secretKey } }', keysAuth);
    expect(byKey.body.errors?.[0]).toMatchObject({ message: 'API keys are managed with a dashboard token.', extensions: { code: 'FORBIDDEN' } });
    const revokeByKey = await gql(url, `mutation { revokeBnplApiKey(id: "${apiKey.id}") }`, keysAuth);
    expect(revokeByKey.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const invalid = await gql(url, 'mutation { createBnplApiKey(name: "", environment: "prod") { secretKey } }', bearer(owner.token));
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const revoked = await gql(url, `mutation { revokeBnplApiKey(id: "${apiKey.id}") }`, bearer(owner.token));
    expect(revoked.body.data!.revokeBnplApiKey).toBe(apiKey.id);
    expect((await gql(url, `mutation { revokeBnplApiKey(id: "${apiKey.id}") }`, bearer(owner.token))).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gql(url, '{ bnplMerchant { name } }', keysAuth)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('subgraph', () => {
  const merchantQuery = '{ bnplMerchant { id name settlementCadence createdAt apiKeys { publicKey environment } } }';

  it('resolves bnplMerchant with the dashboard token and with the API key pair', async () => {
    for (const headers of [bearer(DEMO_DASHBOARD_TOKEN), { ...bearer(DEMO_SECRET_KEY), 'x-merchant-public-key': DEMO_PUBLIC_KEY }]) {
      const { body } = await gql(url, merchantQuery, headers);
      expect(body.errors).toBeUndefined();
      expect(body.data?.bnplMerchant).toMatchObject({ name: 'Demo Shop', settlementCadence: 'WEEKLY', apiKeys: [{ publicKey: DEMO_PUBLIC_KEY, environment: 'test' }] });
    }
  });

  it('refuses bnplMerchant without valid credentials', async () => {
    const refused: Array<Record<string, string>> = [{}, bearer(generateDashboardToken()), { 'x-merchant-public-key': DEMO_PUBLIC_KEY }];
    for (const headers of refused) {
      const { body } = await gql(url, merchantQuery, headers);
      expect(body.data?.bnplMerchant ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  describe('_entities', () => {
    const entitiesQuery = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on BnplMerchant { id name } } }`;

    it("resolves the caller's own merchant and hides every other one", async () => {
      const other = await createMerchant('Other Shop');
      const own = await gql(url, '{ bnplMerchant { id } }', bearer(DEMO_DASHBOARD_TOKEN));
      const ownId = (own.body.data?.bnplMerchant as { id: string }).id;
      const reps = [{ __typename: 'BnplMerchant', id: ownId }, { __typename: 'BnplMerchant', id: other.merchant.id }];
      const { body } = await gql(url, entitiesQuery, bearer(DEMO_DASHBOARD_TOKEN), { reps });
      expect(body.errors).toBeUndefined();
      expect(body.data?._entities).toEqual([{ id: ownId, name: 'Demo Shop' }, null]);
    });

    it('never returns data to an unauthenticated caller', async () => {
      const own = await gql(url, '{ bnplMerchant { id } }', bearer(DEMO_DASHBOARD_TOKEN));
      const reps = [{ __typename: 'BnplMerchant', id: (own.body.data?.bnplMerchant as { id: string }).id }];
      const { body } = await gql(url, entitiesQuery, {}, { reps });
      expect(JSON.stringify(body.data ?? null)).not.toContain('Demo Shop');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});
