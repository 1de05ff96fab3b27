// The crypto service as a whole: its database schema and seed, its probes, and the spec's error format on a path it
// does not serve.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Account, ApiKey } from '../src/modules/accounts/index.js';
import { accountXpubs, testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import { DEMO_API_KEY, DEMO_KEY_ID, seedDemoData } from '../src/seed.js';
import { SUITE_ACCOUNT_ID_RANGE, createMerchant, ownSchemaDiff, startHarness, type Harness } from './helpers.js';

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

describe('database', () => {
  it('the checked-in migrations create exactly the schema the entities describe', async () => {
    expect(await ownSchemaDiff(h.orm)).toEqual([]);
  });

  it('seed is idempotent and restores the demo key', async () => {
    const em = h.orm.em.fork();
    await em.nativeUpdate(ApiKey, { keyId: DEMO_KEY_ID }, { revokedAt: new Date() });
    const first = await seedDemoData(h.orm.em.fork());
    const second = await seedDemoData(h.orm.em.fork());
    expect(second).toEqual(first);
    expect(first.api_key).toBe(DEMO_API_KEY);
    expect(await em.count(ApiKey, { keyId: DEMO_KEY_ID, revokedAt: null })).toBe(1);
    expect(await em.count(Account, { name: 'Demo Merchant' })).toBe(1);
  });

  it("seed gives the demo account the test mnemonic's keys of its own BIP32 account (n' = its id)", async () => {
    const { account_id: accountId } = await seedDemoData(h.orm.em.fork());
    expect(await accountXpubs(h.orm.em.fork(), accountId)).toEqual({ ...testMnemonicAccountKeys(accountId) });
  });
});

describe('test harness', () => {
  it("gives each suite's accounts ids of their own, so suites sharing the chain nodes never share a receive address", async () => {
    const other = await startHarness();
    try {
      const here = await createMerchant(h, 'Suite A');
      const there = await createMerchant(other, 'Suite B');
      for (const { accountId } of [here, there]) {
        expect(accountId).toBeGreaterThanOrEqual(SUITE_ACCOUNT_ID_RANGE.min);
        expect(accountId).toBeLessThan(SUITE_ACCOUNT_ID_RANGE.max);
      }
      expect(there.accountId).not.toBe(here.accountId);
      expect(testMnemonicAccountKeys(there.accountId).LTC).not.toBe(testMnemonicAccountKeys(here.accountId).LTC);
    } finally {
      await other.close();
    }
  });
});

describe('probes', () => {
  it('/healthz and /readyz (database + Temporal) answer 200', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
    expect(ready.status).toBe(200);
  });
});

describe('unknown routes', () => {
  it('answers unknown routes in the spec error format', async () => {
    const res = await fetch(`${url}/api/merchant/v1/nope`, { headers: auth(DEMO_API_KEY) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found.' });
  });
});
