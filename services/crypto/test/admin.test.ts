// The operator commands end to end: the real entry point (`npm run admin` → services/stack/bin/admin.mjs →
// services/crypto/dist/admin/cli.js, built by `npm test`) against a real, migrated database, and the effect of each
// command on the running HTTP service.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SecretBox, generateSecretBoxKey, signPayload, verifySignature } from '@tributary/kit';
import { Account } from '../src/modules/accounts/account.entity.js';
import { signingSecretRef } from '../src/modules/accounts/index.js';
import { AccountXpub, XPUB_VERSIONS, accountXpubs, keyOwnedByAnotherAccountMessage, testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import { DEMO_SIGNING_SECRET, seedDemoData } from '../src/seed.js';
import { resolveSigningSecret } from '../src/worker.js';
import { withVersion } from './extended-keys.js';
import { startHarness, type Harness } from './helpers.js';

const dispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));
const KEY = generateSecretBoxKey();
let h: Harness;
let databaseUrl: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [dispatcher, 'crypto', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, SECRETS_ENCRYPTION_KEY: KEY } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** --json: exactly one JSON document on stdout. */
async function adminJson(...args: string[]): Promise<{ code: number; body: Record<string, unknown>; stderr: string }> {
  const run = await admin(...args, '--json');
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { code: run.code, body: JSON.parse(lines[0]!) as Record<string, unknown>, stderr: run.stderr };
}

const account = (key: string) => fetch(`${h.service.url}/api/merchant/v1/account`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
const signingContext = () => ({ em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: KEY } });

beforeAll(async () => {
  h = await startHarness();
  databaseUrl = h.db.url;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('admin crypto (real entry point, real database)', () => {
  let accountId: number;
  let apiKey: string;
  let firstSecret: string;

  it('account create → id, assets from the test mnemonic, a whsec_ signing secret shown once (sealed at rest)', async () => {
    const { code, body } = await adminJson('account', 'create', '--name', 'Corner Shop');
    expect(code).toBe(0);
    expect(body).toEqual({ account_id: expect.any(Number), name: 'Corner Shop', status: 'active', assets: ['BTC', 'ETH', 'LTC', 'MATIC'], test_keys: true, signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{48}$/) });
    accountId = body.account_id as number;
    firstSecret = body.signing_secret as string;
    const row = await h.orm.em.fork().findOneOrFail(Account, { id: accountId });
    expect(row.signingSecretSealed).toMatch(/^v1\./);
    expect(row.signingSecretSealed).not.toContain(firstSecret.slice(6));
  }, 30_000);

  it('account create --xpub stores only the given keys and refuses a bad one (exit 2, nothing created)', async () => {
    const vpub = testMnemonicAccountKeys(0).BTC;
    const ok = await adminJson('account', 'create', '--name=Wallet Shop', '--xpub', `btc=${vpub}`);
    expect(ok.code).toBe(0);
    expect(ok.body).toMatchObject({ assets: ['BTC'], test_keys: false });
    const before = await h.orm.em.fork().count(Account);
    const bad = await adminJson('account', 'create', '--name', 'X', '--xpub', 'BTC=xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^usage error: /);
    expect(await h.orm.em.fork().count(Account)).toBe(before);
  }, 30_000);

  it('account create without --xpub gives each account its own test keys (account n\' for id n)', async () => {
    const { body } = await adminJson('account', 'create', '--name', 'Second Corner Shop');
    const id = body.account_id as number;
    expect(await accountXpubs(h.orm.em.fork(), id)).toEqual({ ...testMnemonicAccountKeys(id) });
    expect(await accountXpubs(h.orm.em.fork(), accountId)).toEqual({ ...testMnemonicAccountKeys(accountId) });
  }, 30_000);

  it('a key registered by another account is refused, under any prefix (exit 2, nothing created); one account may use it for BTC and LTC', async () => {
    const taken = testMnemonicAccountKeys(0).BTC; // Wallet Shop's, above
    const before = await h.orm.em.fork().count(Account);
    for (const key of [taken, withVersion(taken, XPUB_VERSIONS.tpub)]) {
      const refused = await adminJson('account', 'create', '--name', 'Copycat', '--xpub', `BTC=${key}`);
      expect(refused.code).toBe(2);
      expect(refused.body).toEqual({ error: { code: 'invalid_argument', message: keyOwnedByAnotherAccountMessage('BTC') } });
      expect(refused.stderr).toBe(`usage error: ${keyOwnedByAnotherAccountMessage('BTC')}\n`);
    }
    expect(await h.orm.em.fork().count(Account)).toBe(before);
    const own = testMnemonicAccountKeys(2_000_000_000).BTC;
    const both = await adminJson('account', 'create', '--name', 'Two Coins', '--xpub', `BTC=${own}`, '--xpub', `LTC=${withVersion(own, XPUB_VERSIONS.ttub)}`);
    expect(both).toMatchObject({ code: 0, body: { assets: ['BTC', 'LTC'], test_keys: false } });
  }, 30_000);

  it('account keys registers or replaces an account\'s keys (the cursor stays); another account\'s key is refused (exit 2)', async () => {
    const own = testMnemonicAccountKeys(2_000_000_001);
    await h.orm.em.fork().nativeUpdate(AccountXpub, { account: accountId, asset: 'ETH' }, { nextIndex: 5 });
    const set = await adminJson('account', 'keys', String(accountId), '--xpub', `ETH=${own.ETH}`, '--xpub', `MATIC=${own.MATIC}`);
    expect(set).toMatchObject({ code: 0, body: { account_id: accountId, assets: ['BTC', 'ETH', 'LTC', 'MATIC'] } });
    expect(await accountXpubs(h.orm.em.fork(), accountId)).toMatchObject({ ETH: own.ETH, MATIC: own.MATIC, BTC: testMnemonicAccountKeys(accountId).BTC });
    expect((await h.orm.em.fork().findOneOrFail(AccountXpub, { account: accountId, asset: 'ETH' })).nextIndex).toBe(5);
    const refused = await adminJson('account', 'keys', String(accountId), '--xpub', `BTC=${testMnemonicAccountKeys(0).BTC}`);
    expect(refused).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument', message: keyOwnedByAnotherAccountMessage('BTC') } } });
    expect(await adminJson('account', 'keys', String(accountId))).toMatchObject({ code: 2, body: { error: { code: 'usage' } } });
    expect(await adminJson('account', 'keys', '999999', '--xpub', `BTC=${own.BTC}`)).toMatchObject({ code: 1, body: { error: { code: 'not_found' } } });
  }, 30_000);

  it('key create → {"key"} that authenticates over HTTP; key revoke → the next request is the same 401', async () => {
    const created = await adminJson('key', 'create', '--account', String(accountId));
    expect(created.code).toBe(0);
    expect(Object.keys(created.body)).toEqual(['key']);
    apiKey = created.body.key as string;
    expect(apiKey).toMatch(/^ck_[A-Za-z0-9]{24}\.[A-Za-z0-9]{48}$/);
    const res = await account(apiKey);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { account: { id: number } }).account.id).toBe(accountId);

    const other = (await adminJson('key', 'create', '--account', String(accountId))).body.key as string;
    const revoked = await adminJson('key', 'revoke', other.split('.')[0]!);
    expect(revoked).toMatchObject({ code: 0, body: { key_id: other.split('.')[0], account_id: accountId, already_revoked: false } });
    const refused = await account(other);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Invalid API credentials.' });
    expect((await account(apiKey)).status).toBe(200);
  }, 30_000);

  it('account suspend → the next request is the same 401 even with a valid key; unsuspend restores it', async () => {
    expect(await adminJson('account', 'suspend', String(accountId))).toMatchObject({ code: 0, body: { account_id: accountId, status: 'suspended', changed: true } });
    const refused = await account(apiKey);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Invalid API credentials.' });
    expect(await adminJson('account', 'unsuspend', String(accountId))).toMatchObject({ code: 0, body: { status: 'active', changed: true } });
    expect((await account(apiKey)).status).toBe(200);
  }, 30_000);

  it('secret rotate → a new whsec_ secret; deliveries signed after it verify with the new secret only', async () => {
    const ref = signingSecretRef(accountId);
    expect(await resolveSigningSecret(ref, signingContext())).toBe(firstSecret);
    const { code, body } = await adminJson('secret', 'rotate', '--account', String(accountId));
    expect(code).toBe(0);
    const rotated = body.signing_secret as string;
    expect(body).toEqual({ account_id: accountId, signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{48}$/) });
    expect(rotated).not.toBe(firstSecret);
    // What the worker signs with at send time, decrypted from the database now.
    const secret = await resolveSigningSecret(ref, signingContext());
    expect(secret).toBe(rotated);
    const payload = Buffer.from('{"event":"payment.paid","id":"x"}');
    const signature = signPayload(secret!, payload);
    expect(verifySignature(rotated, payload, signature)).toBe(true);
    expect(verifySignature(firstSecret, payload, signature)).toBe(false);
    // Other references never resolve; a wrong key does not silently produce a secret.
    expect(await resolveSigningSecret('account:999999', signingContext())).toBeNull();
    expect(await resolveSigningSecret('endpoint:1', signingContext())).toBeNull();
    await expect(resolveSigningSecret(ref, { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: generateSecretBoxKey() } })).rejects.toThrow(/cannot be opened/);
    await expect(resolveSigningSecret(ref, { em: h.orm.em.fork(), env: { NODE_ENV: 'production' } })).rejects.toThrow(/SECRETS_ENCRYPTION_KEY is required/);
  }, 30_000);

  it('assets and asset confirmations (never below the default: exit 2)', async () => {
    const list = await adminJson('assets');
    expect(list.code).toBe(0);
    expect(list.body.assets).toEqual([
      { id: 1, code: 'BTC', chain: 'bitcoin', decimals: 8, confirmations: 2, default_confirmations: 2 },
      { id: 2, code: 'ETH', chain: 'ethereum', decimals: 18, confirmations: 12, default_confirmations: 12 },
      { id: 3, code: 'LTC', chain: 'litecoin', decimals: 8, confirmations: 6, default_confirmations: 6 },
      { id: 4, code: 'MATIC', chain: 'polygon', decimals: 18, confirmations: 30, default_confirmations: 30 },
    ]);
    expect(await adminJson('asset', 'confirmations', 'eth', '20')).toMatchObject({ code: 0, body: { asset: { code: 'ETH', confirmations: 20 } } });
    const low = await adminJson('asset', 'confirmations', 'BTC', '1');
    expect(low.code).toBe(2);
    expect(low.body).toEqual({ error: { code: 'invalid_argument', message: expect.stringContaining('below the spec default of 2') } });
    const human = await admin('assets');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^asset_id +code +chain/);
    expect(human.stdout).toMatch(/\n2 +ETH +ethereum +18 +20 \(12\)\n/);
  }, 30_000);

  it('bad arguments exit 2 with one usage line; unknown ids exit 1 with a clear message', async () => {
    for (const args of [[], ['frobnicate'], ['key', 'create'], ['key', 'create', '--account', 'abc'], ['account', 'suspend'], ['account', 'create', '--name'], ['secret', 'show', '--account', '1'], ['asset', 'confirmations', 'BTC', 'many']]) {
      const run = await admin(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^usage error: /);
    }
    for (const [args, message] of [
      [['key', 'create', '--account', '999999'], 'No account with id 999999.'],
      [['account', 'suspend', '999999'], 'No account with id 999999.'],
      [['secret', 'rotate', '--account', '999999'], 'No account with id 999999.'],
      [['key', 'revoke', 'ck_Unknown0000000000000000'], 'No API key with id ck_Unknown0000000000000000.'],
    ] as const) {
      const run = await adminJson(...args);
      expect(run).toEqual({ code: 1, body: { error: { code: 'not_found', message } }, stderr: `error: ${message}\n` });
    }
  }, 60_000);
});

describe('seed', () => {
  it('gives the demo account the fixed dev signing secret, prints it, and restores it after a rotation', async () => {
    const env = { SECRETS_ENCRYPTION_KEY: KEY };
    const credentials = await seedDemoData(h.orm.em.fork(), env);
    expect(credentials).toEqual({ api_key: expect.any(String), signing_secret: DEMO_SIGNING_SECRET, account_id: expect.any(Number) });
    expect(DEMO_SIGNING_SECRET).toMatch(/^whsec_[A-Za-z0-9]{48}$/);
    const ref = signingSecretRef(credentials.account_id);
    expect(await resolveSigningSecret(ref, signingContext())).toBe(DEMO_SIGNING_SECRET);
    await adminJson('secret', 'rotate', '--account', String(credentials.account_id));
    expect(await resolveSigningSecret(ref, signingContext())).not.toBe(DEMO_SIGNING_SECRET);
    await seedDemoData(h.orm.em.fork(), env);
    expect(await resolveSigningSecret(ref, signingContext())).toBe(DEMO_SIGNING_SECRET);
    // Sealed under the key in use, never stored in clear.
    const row = await h.orm.em.fork().findOneOrFail(Account, { id: credentials.account_id });
    expect(SecretBox.fromBase64(KEY).open(row.signingSecretSealed!, `crypto:account:${credentials.account_id}:signing-secret`)).toBe(DEMO_SIGNING_SECRET);
  }, 30_000);
});
