// The UTXO watcher's scan against the run's real Litecoin Core regtest node (CRYPTO_LTC_RPC_URL; issue 12 §2): real
// transactions to the addresses the gateway hands out, found in new blocks, counted once they have the asset's six
// confirmations, exactly once however often a block is read again.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UtxoRpcClient, UtxoRpcError } from '../src/modules/chain-nodes/index.js';
import { ChainCursor, UtxoChainWatcher } from '../src/modules/chain-watch/index.js';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { Payment, PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const LTC_ASSET_ID = 3;
const WALLET = 'tributary-watcher-funds';

let node: UtxoRpcClient;
let h: Harness;
let merchant: TestMerchant;
let miner: string;

function nodeUrl(): string {
  const url = process.env['CRYPTO_LTC_RPC_URL'];
  if (!url) throw new Error('CRYPTO_LTC_RPC_URL is not set: run through `npm test`, which starts litecoind in regtest (Debian package litecoind).');
  return url;
}

beforeAll(async () => {
  node = new UtxoRpcClient({ url: nodeUrl() });
  if (!(await node.call<string[]>('listwallets')).includes(WALLET)) {
    await node.call('createwallet', [WALLET]).catch(async (error: unknown) => {
      if (!(error instanceof UtxoRpcError)) throw error;
      await node.call('loadwallet', [WALLET]);
    });
  }
  miner = await node.call<string>('getnewaddress', ['', 'bech32'], { wallet: WALLET });
  await node.call('generatetoaddress', [101, miner]);
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest' } });
  merchant = await createMerchant(h, 'Watched Litecoin Shop');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const watcher = () =>
  new UtxoChainWatcher(h.orm.em.fork(), { chain: 'litecoin', network: 'regtest', rpc: node, payments: new PaymentService(h.orm.em.fork(), { network: 'regtest' }) });
const mine = (blocks: number) => node.call<string[]>('generatetoaddress', [blocks, miner]);
const pay = (address: string, amount: number) => node.call<string>('sendtoaddress', [address, amount], { wallet: WALLET });

async function createRequest(amount: string): Promise<{ slug: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: LTC_ASSET_ID, title: 'Watched order', amount }),
  });
  expect(res.status).toBe(201);
  const { id, address } = ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
  return { slug: id, address };
}

async function requestState(slug: string) {
  const request = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug });
  const payments = await h.orm.em.fork().find(Payment, { paymentRequest: request.id }, { orderBy: { id: 'asc' } });
  return { status: request.status, paid: request.amountPaid.toString(), payments: payments.map((p) => ({ amount: p.value.toString(), confirmations: p.confirmations, counted: p.counted })) };
}

describe('UtxoChainWatcher.scanOnce on litecoind regtest', () => {
  it('starts at the tip, then finds a real payment in the next block and counts it at six confirmations', async () => {
    const first = await watcher().scanOnce();
    expect(first.toHeight).toBe(first.tipHeight);
    const request = await createRequest('0.5');

    await pay(request.address, 0.5);
    await mine(1);
    const scan = await watcher().scanOnce();
    expect([scan.toHeight - scan.fromHeight, scan.found, scan.recounted]).toEqual([1, 1, 0]);
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [{ amount: '0.5', confirmations: 1, counted: false }] });

    await mine(4);
    expect(await watcher().scanOnce()).toMatchObject({ found: 0, recounted: 1 });
    expect((await requestState(request.slug)).payments).toEqual([{ amount: '0.5', confirmations: 5, counted: false }]);
    await mine(1);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toEqual({ status: 'paid', paid: '0.5', payments: [{ amount: '0.5', confirmations: 6, counted: true }] });
  });

  it('a partial payment, then the rest, then more than asked: partial → paid → overpaid, each counted once', async () => {
    const request = await createRequest('1');
    await pay(request.address, 0.4);
    await mine(6);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'partial', paid: '0.4' });
    await pay(request.address, 0.6);
    await pay(request.address, 0.25);
    await mine(6);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'overpaid', paid: '1.25' });
  });

  it('reading blocks again (the cursor moved back, as after a crash) changes nothing', async () => {
    const request = await createRequest('0.3');
    await pay(request.address, 0.3);
    await mine(6);
    await watcher().scanOnce();
    const before = await requestState(request.slug);
    const em = h.orm.em.fork();
    const cursor = await em.findOneOrFail(ChainCursor, { chain: 'litecoin' });
    cursor.height -= 6;
    cursor.blockHash = await node.getBlockHash(cursor.height);
    await em.flush();
    const again = await watcher().scanOnce();
    expect(again.toHeight - again.fromHeight).toBe(6);
    expect(await requestState(request.slug)).toEqual(before);
  });

  it('a block whose parent is not the scanned one (a reorg) stops the scan and says so, recording nothing from it', async () => {
    const em = h.orm.em.fork();
    const cursor = await em.findOneOrFail(ChainCursor, { chain: 'litecoin' });
    const realHash = cursor.blockHash;
    cursor.blockHash = '00'.repeat(32);
    await em.flush();
    await mine(1);
    const scan = await watcher().scanOnce();
    expect(scan.reorgAt).toBe(cursor.height + 1);
    const stored = await h.orm.em.fork().findOneOrFail(ChainCursor, { chain: 'litecoin' });
    expect([stored.height, stored.lastError]).toEqual([cursor.height, expect.stringContaining('a reorg')]);
    // Put it right, so the next scan goes on.
    await h.orm.em.fork().nativeUpdate(ChainCursor, { chain: 'litecoin' }, { blockHash: realHash });
    expect((await watcher().scanOnce()).reorgAt).toBeUndefined();
  });
});
