// Against the run's real Litecoin Core regtest node (CRYPTO_LTC_RPC_URL, started by the test runner; issue 12): the
// addresses the gateway hands out on regtest are valid there and a real payment to one is found where the UTXO watcher
// will look for it, in `getblock <hash> 2`, through the service's JSON-RPC client.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UtxoRpcClient, UtxoRpcError, outputAddress } from '../src/modules/chain-nodes/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const LTC_ASSET_ID = 3;
const FUNDING_WALLET = 'tributary-test-funds';

function nodeUrl(): string {
  const url = process.env['CRYPTO_LTC_RPC_URL'];
  if (!url) throw new Error('CRYPTO_LTC_RPC_URL is not set: run through `npm test`, which starts litecoind in regtest (Debian package litecoind).');
  return url;
}

let node: UtxoRpcClient;
let h: Harness;
let merchant: TestMerchant;
let miningAddress: string;

/** A wallet with spendable coins: coinbase outputs mature after 100 blocks. */
async function fundedWallet(): Promise<void> {
  const loaded = await node.call<string[]>('listwallets');
  if (!loaded.includes(FUNDING_WALLET)) {
    await node.call('createwallet', [FUNDING_WALLET]).catch(async (error: unknown) => {
      if (!(error instanceof UtxoRpcError)) throw error;
      await node.call('loadwallet', [FUNDING_WALLET]);
    });
  }
  miningAddress = await node.call<string>('getnewaddress', ['', 'bech32'], { wallet: FUNDING_WALLET });
  await node.call('generatetoaddress', [101, miningAddress]);
}

beforeAll(async () => {
  node = new UtxoRpcClient({ url: nodeUrl() });
  await fundedWallet();
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest' } });
  merchant = await createMerchant(h, 'Regtest Litecoin Shop');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function createLitecoinRequest(amount: string): Promise<{ id: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: LTC_ASSET_ID, title: 'Regtest order', amount }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
}

describe('litecoind regtest', () => {
  it('outputAddress reads either form a node version uses', () => {
    const out = (scriptPubKey: Record<string, unknown>) => ({ value: '1.00000000', n: 0, scriptPubKey: { hex: '', type: 'witness_v0_keyhash', ...scriptPubKey } });
    expect(outputAddress(out({ address: 'rltc1qa' }))).toBe('rltc1qa');
    expect(outputAddress(out({ addresses: ['rltc1qb'] }))).toBe('rltc1qb');
    expect(outputAddress(out({ addresses: ['a', 'b'] }))).toBeNull();
    expect(outputAddress(out({}))).toBeNull();
  });

  it('is a regtest chain', async () => {
    const info = await node.getBlockchainInfo();
    expect(info.chain).toBe('regtest');
    expect(info.blocks).toBeGreaterThanOrEqual(101);
  });

  it("accepts the gateway's regtest address, and a real payment to it shows in getblock verbosity 2 with its amount", async () => {
    const request = await createLitecoinRequest('0.5');
    expect(await node.call<{ isvalid: boolean; scriptPubKey: string }>('validateaddress', [request.address])).toMatchObject({ isvalid: true });

    const txid = await node.call<string>('sendtoaddress', [request.address, 0.5], { wallet: FUNDING_WALLET });
    const [blockHash] = await node.call<string[]>('generatetoaddress', [1, miningAddress]);
    const block = await node.getBlock(blockHash!);
    const tx = block.tx.find((t) => t.txid === txid);
    const outputs = tx?.vout.filter((out) => outputAddress(out) === request.address) ?? [];
    expect(outputs.map((out) => out.value)).toEqual(['0.50000000']);
    expect(block.confirmations).toBe(1);
    expect(await node.getBlockHash(block.height)).toBe(blockHash);
  });

  it('turns a node error into UtxoRpcError with its code, and wrong credentials into an error naming no secret', async () => {
    await expect(node.getBlockHash(1_000_000)).rejects.toMatchObject({ name: 'UtxoRpcError', code: -8 });
    const wrong = new URL(nodeUrl());
    wrong.password = 'not-the-password';
    const refused = new UtxoRpcClient({ url: wrong.toString() }).getBlockchainInfo();
    await expect(refused).rejects.toThrow('refused the RPC credentials');
    const message = await refused.then(() => '', (e: unknown) => (e as Error).message);
    expect(message).not.toContain(new URL(nodeUrl()).password);
    expect(message).not.toContain('not-the-password');
  });
});
