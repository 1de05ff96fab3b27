// CRYPTO_NETWORK (issue 12 §1): which network addresses, payment URIs and payments are on; mainnet only when confirmed;
// and what a switch does to requests made before it (they can never be paid on the new network). Real service, real
// database, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig, secretBoxFor } from '@tributary/kit';
import { MAINNET_NOT_CONFIRMED_MESSAGE, chainNetworkOf } from '../src/chain-network.js';
import { cryptoEnv } from '../src/config.js';
import { AccountAdminService } from '../src/modules/accounts/index.js';
import { PaymentRequest, PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService, wrongNetworkMessage } from '../src/modules/payments/index.js';
import { TEST_KEYS_ON_MAINNET_MESSAGE, testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import { createMerchant, createRequest, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BTC = 1;
const ETH = 2;
const LTC = 3;

describe('the setting', () => {
  const base = { NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@127.0.0.1/x', TEMPORAL_ADDRESS: '127.0.0.1:7233' };

  it('defaults to testnet, takes regtest, and refuses mainnet unless CRYPTO_MAINNET_CONFIRM=real-funds', () => {
    expect(loadConfig(cryptoEnv, base).CRYPTO_NETWORK).toBe('testnet');
    expect(loadConfig(cryptoEnv, { ...base, CRYPTO_NETWORK: 'regtest' }).CRYPTO_NETWORK).toBe('regtest');
    expect(() => loadConfig(cryptoEnv, { ...base, CRYPTO_NETWORK: 'mainnet' })).toThrow(MAINNET_NOT_CONFIRMED_MESSAGE);
    expect(() => loadConfig(cryptoEnv, { ...base, CRYPTO_NETWORK: 'mainnet', CRYPTO_MAINNET_CONFIRM: 'yes' })).toThrow('CRYPTO_NETWORK');
    expect(loadConfig(cryptoEnv, { ...base, CRYPTO_NETWORK: 'mainnet', CRYPTO_MAINNET_CONFIRM: 'real-funds' }).CRYPTO_NETWORK).toBe('mainnet');
    expect(() => loadConfig(cryptoEnv, { ...base, CRYPTO_NETWORK: 'signet' })).toThrow('CRYPTO_NETWORK');
    expect(() => chainNetworkOf({ CRYPTO_NETWORK: 'mainnet' })).toThrow(MAINNET_NOT_CONFIRMED_MESSAGE);
  });
});

describe('a gateway on regtest', () => {
  let h: Harness;
  let merchant: TestMerchant;
  const headers = () => ({ authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' });
  const create = async (asset_id: number) => {
    const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, { method: 'POST', headers: headers(), body: JSON.stringify({ asset_id, title: 'Order', amount: '0.5' }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
  };
  const page = async (slug: string) => (await fetch(`${h.service.url}/pay/${slug}`)).text();

  beforeAll(async () => {
    h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest' } });
    merchant = await createMerchant(h, 'Regtest Shop');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('hands out regtest addresses (bcrt1…, rltc1…; EVM unchanged), records the network, and its page and URI say so', async () => {
    const btc = await create(BTC);
    expect(btc.address).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/);
    expect((await create(LTC)).address).toMatch(/^rltc1q/);
    const eth = await create(ETH);
    expect(eth.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug: btc.id });
    expect(stored.network).toBe('regtest');
    const { body } = await gql(h.service.url, `query($id: ID!) { paymentRequest(id: $id) { slug network address } }`, { authorization: `Bearer ${merchant.key}` }, { id: String(stored.id) });
    expect(body.data?.paymentRequest).toEqual({ slug: btc.id, network: 'regtest', address: btc.address });
    const html = await page(btc.id);
    expect(html).toContain('Network: bitcoin (local regtest chain)');
    expect(html).toContain(`bitcoin:${btc.address}?amount=0.5`);
    // EIP-681 names the local chain id, which no public chain uses.
    expect(await page(eth.id)).toContain(`ethereum:${eth.address}@31337?value=500000000000000000`);
  });

  it('after a switch from testnet: the older request is never paid on regtest and its page asks for no payment', async () => {
    const principal = { accountId: merchant.accountId, apiKeyId: merchant.apiKeyId };
    const older = await createRequest(new PaymentRequestService(h.orm.em.fork(), { network: 'testnet' }), principal, { asset_id: BTC, title: 'Before the switch', amount: '0.5' });
    expect(older.address).toMatch(/^tb1q/);

    const payment = { chain: 'bitcoin' as const, txid: 'a'.repeat(64), index: 0, amount: '0.5', confirmations: 6, to: { slug: older.slug } };
    await expect(new PaymentService(h.orm.em.fork(), { network: 'regtest' }).record(payment)).rejects.toMatchObject({ message: wrongNetworkMessage('testnet', 'regtest') });
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug: older.slug });
    expect([stored.status, stored.amountPaid.toString()]).toEqual(['pending', '0']);

    const html = await page(older.slug);
    expect(html).toContain('Network: bitcoin (test network)');
    expect(html).toContain('This payment request was made on the test network, and this gateway now runs on the local regtest chain');
    expect(html).not.toContain('id="pay"');
    expect(html).not.toContain(older.address);
  });
});

describe('mainnet', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { CRYPTO_NETWORK: 'mainnet', CRYPTO_MAINNET_CONFIRM: 'real-funds' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const admin = () => new AccountAdminService(h.orm.em.fork(), secretBoxFor({ NODE_ENV: 'test' }), 'mainnet');

  it('gives no account the published test keys, and takes a mainnet key but not a test one', async () => {
    await expect(admin().createAccount({ name: 'No keys' })).rejects.toMatchObject({ message: TEST_KEYS_ON_MAINNET_MESSAGE });
    await expect(admin().createAccount({ name: 'Test key', xpubs: { BTC: testMnemonicAccountKeys(5).BTC } })).rejects.toThrow('(a test-network key; this gateway runs on mainnet)');
    const created = await admin().createAccount({ name: 'Real wallet', xpubs: { BTC: BIP84_ZPUB } });
    expect(created.assets).toEqual(['BTC']);
  });

  it('refuses a request (422, nothing stored) for an account whose key is a test-network one, made before the switch', async () => {
    const merchant = await createMerchant(h, 'Switched to mainnet');
    const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id: BTC, title: 'Order', amount: '0.5' }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('cannot be used on mainnet');
    expect(await h.orm.em.fork().count(PaymentRequest, { account: merchant.accountId })).toBe(0);
  });
});
