// The UTXO watcher's scan against the run's real Litecoin Core regtest node (CRYPTO_LTC_RPC_URL; issue 12 §2): real
// transactions to the addresses the gateway hands out, found in new blocks, counted once they have the asset's six
// confirmations, exactly once however often a block is read again.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { invoiceReopenedWorkflowId, invoiceWorkflowId } from '@tributary/workflows';
import type { UtxoRpcClient } from '../src/modules/chain-nodes/index.js';
import { ChainCursor, ChainWatcher, UtxoBlockSource } from '../src/modules/chain-watch/index.js';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { Payment, PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';
import { LTC_ASSET_ID, litecoinTestNode, type LitecoinTestNode } from './litecoin-node.js';

const WALLET = 'tributary-watcher-funds';

let node: UtxoRpcClient;
let h: Harness;
let merchant: TestMerchant;
let mine: LitecoinTestNode['mine'];
let mineElsewhere: LitecoinTestNode['mineElsewhere'];
let pay: LitecoinTestNode['pay'];

beforeAll(async () => {
  const litecoin = await litecoinTestNode(WALLET);
  ({ rpc: node, mine, mineElsewhere, pay } = litecoin);
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest' } });
  merchant = await createMerchant(h, 'Watched Litecoin Shop');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const watcher = () =>
  new ChainWatcher(h.orm.em.fork(), { source: new UtxoBlockSource('litecoin', node), network: 'regtest', payments: new PaymentService(h.orm.em.fork(), { network: 'regtest' }) });

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

describe('ChainWatcher.scanOnce over UtxoBlockSource on litecoind regtest', () => {
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

  it('a late payment (after the deadline) is credited to the expired request, which stays expired', async () => {
    const request = await createRequest('0.4');
    // The deadline passes (its workflow would expire it; the payment comes later still).
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { slug: request.slug }, { expiresAt: new Date(Date.now() - 60_000) });
    await pay(request.address, 0.4);
    await mine(6);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toEqual({ status: 'expired', paid: '0.4', payments: [{ amount: '0.4', confirmations: 6, counted: true }] });
  });

  it('two outputs to the same address in one transaction are two payments, both counted', async () => {
    const request = await createRequest('1');
    // sendmany refuses a duplicate address, so the transaction is built by hand: two outputs, one address.
    const unspent = (await node.call<Array<{ txid: string; vout: number; amount: number }>>('listunspent', [1], { wallet: WALLET })).find((u) => u.amount >= 1);
    if (!unspent) throw new Error('the test wallet has no output of at least 1 LTC');
    const change = await node.call<string>('getrawchangeaddress', ['bech32'], { wallet: WALLET });
    const twoOutputs = await node.call<string>('createrawtransaction', [[{ txid: unspent.txid, vout: unspent.vout }], [{ [change]: 0.001 }]]);
    const decoded = await node.call<{ vout: Array<{ scriptPubKey: { hex: string } }> }>('decoderawtransaction', [twoOutputs]);
    const script = (await node.call<{ scriptPubKey: string }>('getaddressinfo', [request.address], { wallet: WALLET })).scriptPubKey;
    const raw = withOutputs(twoOutputs, decoded.vout.length, [[30_000_000n, script], [70_000_000n, script]]);
    const funded = await node.call<{ hex: string }>('fundrawtransaction', [raw, { changeAddress: change }], { wallet: WALLET });
    const signed = await node.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [funded.hex], { wallet: WALLET });
    const txid = await node.call<string>('sendrawtransaction', [signed.hex]);
    await mine(6);
    await watcher().scanOnce();
    const state = await requestState(request.slug);
    expect(state).toMatchObject({ status: 'paid', paid: '1' });
    expect(state.payments.map((p) => p.amount).sort()).toEqual(['0.3', '0.7']);
    const rows = await h.orm.em.fork().find(Payment, { txid });
    expect(new Set(rows.map((p) => p.outputIndex)).size).toBe(2);
  });

  it('a reorg that removes a counted payment moves the request back; the transaction mined again counts again', async () => {
    const request = await createRequest('0.2');
    await pay(request.address, 0.2);
    const [paidIn] = await mine(1);
    await mine(5);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'paid', paid: '0.2' });

    // The block with the payment and all after it leave the chain; its transaction goes back to the mempool.
    await node.call('invalidateblock', [paidIn]);
    const scan = await watcher().scanOnce();
    expect(scan.reorg).toMatchObject({ orphaned: 1, reversed: [request.slug] });
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [{ amount: '0.2', confirmations: 0, counted: false }] });
    const orphaned = await h.orm.em.fork().findOneOrFail(Payment, { address: request.address });
    expect([orphaned.orphanedAt, orphaned.orphanedBlockHash, orphaned.blockHash]).toEqual([expect.any(Date), paidIn, null]);
    // Open again within its deadline: its expiry workflow runs again, under an id of its own.
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug: request.slug });
    const restarts = await h.orm.em.getConnection().execute<Array<{ workflow_id: string }>>(`select "workflow_id" from "workflow_outbox" where "workflow_id" like ?`, [`${invoiceWorkflowId(stored)}-reopened-%`]);
    expect(restarts).toEqual([{ workflow_id: invoiceReopenedWorkflowId(stored, paidIn!) }]);

    // The new branch mines it again (to another address, or the block would be the invalidated one, byte for byte):
    // found, counted once it has six confirmations again.
    await mineElsewhere(6);
    const rescan = await watcher().scanOnce();
    expect(rescan.found).toBe(1);
    expect(await requestState(request.slug)).toEqual({ status: 'paid', paid: '0.2', payments: [{ amount: '0.2', confirmations: 6, counted: true }] });
    expect((await h.orm.em.fork().findOneOrFail(Payment, { address: request.address })).orphanedAt).toBeNull();
  });

  it('a reorg that only shortens the chain (no new block yet) is undone at the next scan', async () => {
    const request = await createRequest('0.1');
    await pay(request.address, 0.1);
    const [paidIn] = await mine(1);
    await watcher().scanOnce();
    await node.call('invalidateblock', [paidIn]);
    const scan = await watcher().scanOnce();
    expect([scan.reorg?.orphaned, scan.reorg?.reversed, scan.toHeight]).toEqual([1, [], scan.tipHeight]);
    expect((await requestState(request.slug)).payments).toEqual([{ amount: '0.1', confirmations: 0, counted: false }]);
    await node.call('reconsiderblock', [paidIn]);
    await mineElsewhere(5);
    await watcher().scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'paid', paid: '0.1' });
  });
});

/**
 * A raw transaction's outputs replaced by `outputs` ([satoshis, scriptPubKey hex]): the serialization is version,
 * inputs, output count, outputs, locktime; an unsigned transaction from createrawtransaction has no witness.
 */
function withOutputs(rawHex: string, outputCount: number, outputs: Array<[bigint, string]>): string {
  const raw = Buffer.from(rawHex, 'hex');
  // The existing outputs end 4 bytes (locktime) before the end; find where they start by walking them backwards is
  // not possible, so read forwards: version (4), input count (1, < 253), inputs (36 + script length + 4 each).
  let offset = 4;
  const inputs = raw[offset]!;
  offset += 1;
  for (let i = 0; i < inputs; i++) offset += 36 + 1 + raw[offset + 36]! + 4;
  if (raw[offset] !== outputCount) throw new Error('unexpected output count');
  const serialized = outputs.map(([value, script]) => {
    const amount = Buffer.alloc(8);
    amount.writeBigUInt64LE(value);
    const scriptBytes = Buffer.from(script, 'hex');
    return Buffer.concat([amount, Buffer.from([scriptBytes.length]), scriptBytes]);
  });
  return Buffer.concat([raw.subarray(0, offset), Buffer.from([outputs.length]), ...serialized, raw.subarray(raw.length - 4)]).toString('hex');
}
