// The EVM watcher's scan against the run's two real anvil nodes (CRYPTO_ETH_RPC_URL, CRYPTO_MATIC_RPC_URL; issue 12
// §3): real transactions from an anvil dev account to the addresses the gateway hands out, found in new blocks,
// counted at the asset's confirmations (ETH 12, MATIC 30); reverted transactions and value a contract passes on are
// not payments; a reorg (anvil_reorg) takes a counted payment back. The nodes run with --no-mining: a block exists
// only when the test mines one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicClient, getAddress, http, parseEther, parseGwei, type Hash, type Hex, type PublicClient } from 'viem';
import { EvmRpcClient, EvmRpcError } from '../src/modules/chain-nodes/index.js';
import { ChainWatcher, EvmBlockSource, EvmChainChangedError, NATIVE_TRANSFER_INDEX, type EvmChain } from '../src/modules/chain-watch/index.js';
import { EVM_CHAIN_IDS } from '../src/modules/hosted-page/index.js';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { Payment, PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const ETH_ASSET_ID = 2;
const MATIC_ASSET_ID = 4;

/** A test's handle on one anvil node: JSON-RPC (anvil_* included) and its first dev account, which pays. */
interface Node {
  chain: EvmChain;
  rpc: PublicClient;
  client: EvmRpcClient;
  payer: Hex;
}

let h: Harness;
let merchant: TestMerchant;
let eth: Node;
let polygon: Node;

function nodeUrl(variable: 'CRYPTO_ETH_RPC_URL' | 'CRYPTO_MATIC_RPC_URL'): string {
  const url = process.env[variable];
  if (!url) throw new Error(`${variable} is not set: run through \`npm test\`, which starts anvil (npm package @foundry-rs/anvil).`);
  return url;
}

async function connect(chain: EvmChain, url: string): Promise<Node> {
  // retryCount 0: a JSON-RPC error from anvil is the answer, not a reason to ask again.
  const rpc = createPublicClient({ transport: http(url, { retryCount: 0 }) });
  const [payer] = await call<Hex[]>({ rpc }, 'eth_accounts');
  if (!payer) throw new Error(`the ${chain} anvil node has no dev account`);
  return { chain, rpc, client: new EvmRpcClient({ url }), payer };
}

beforeAll(async () => {
  eth = await connect('ethereum', nodeUrl('CRYPTO_ETH_RPC_URL'));
  polygon = await connect('polygon', nodeUrl('CRYPTO_MATIC_RPC_URL'));
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest' } });
  merchant = await createMerchant(h, 'Watched EVM Shop');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const watcher = (node: Node) =>
  new ChainWatcher(h.orm.em.fork(), {
    source: new EvmBlockSource(node.chain, node.client, { chainId: EVM_CHAIN_IDS.regtest[node.chain] }),
    network: 'regtest',
    payments: new PaymentService(h.orm.em.fork(), { network: 'regtest' }),
  });

/** Mines `blocks` blocks (the first takes the pending transactions); returns the hashes of the new blocks. */
async function mine(node: Node, blocks: number): Promise<Hash[]> {
  const before = Number(await node.rpc.request({ method: 'eth_blockNumber' }));
  await call(node, 'anvil_mine', [`0x${blocks.toString(16)}`]);
  const hashes: Hash[] = [];
  for (let height = before + 1; height <= before + blocks; height++) hashes.push(await node.client.blockHash(height));
  return hashes;
}

/** eth_sendTransaction from the dev account (anvil signs); it waits in the pool until the next mined block. */
async function pay(node: Node, to: string, ether: string, options: { gas?: bigint } = {}): Promise<Hash> {
  const tx: Record<string, string> = { from: node.payer, to, value: `0x${parseEther(ether).toString(16)}` };
  // With an explicit gas limit anvil does not estimate first, so a transaction that will revert is still sent and mined.
  if (options.gas !== undefined) tx['gas'] = `0x${options.gas.toString(16)}`;
  return call<Hash>(node, 'eth_sendTransaction', [tx]);
}

/** Any JSON-RPC method, anvil's own and the dev accounts' included (viem's public client types only the public ones). */
async function call<T>(node: Pick<Node, 'rpc'>, method: string, params: unknown[] = []): Promise<T> {
  return (await node.rpc.request({ method, params } as never)) as T;
}

async function createRequest(assetId: number, amount: string): Promise<{ slug: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: assetId, title: 'Watched order', amount }),
  });
  expect(res.status).toBe(201);
  const { id, address } = ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
  return { slug: id, address };
}

async function requestState(slug: string) {
  const request = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug });
  const payments = await h.orm.em.fork().find(Payment, { paymentRequest: request.id }, { orderBy: { id: 'asc' } });
  return { status: request.status, paid: request.amountPaid.toString(), payments: payments.map((p) => ({ amount: p.amount.toString(), confirmations: p.confirmations, counted: p.counted })) };
}

const balance = async (node: Node, address: string) => BigInt(await node.rpc.request({ method: 'eth_getBalance', params: [address as Hex, 'latest'] }));

/**
 * Runtime code that forwards the call's whole value to `target` with CALL and reverts if that fails: a minimal
 * forwarder, like a smart-contract wallet or an exchange's payout contract paying on a user's behalf.
 * PUSH1 0 ×4 (ret/args) CALLVALUE PUSH20 target GAS CALL ISZERO PUSH1 0x25 JUMPI STOP JUMPDEST PUSH1 0 DUP1 REVERT
 */
function forwarderCode(target: string): Hex {
  return `0x60006000600060003473${target.slice(2).toLowerCase()}5af115602557005b600080fd`;
}

describe('ChainWatcher.scanOnce over EvmBlockSource on anvil', () => {
  it('the nodes run the gateway\'s regtest chain ids; a source pointed at the wrong chain refuses to scan', async () => {
    expect([await eth.client.chainId(), await polygon.client.chainId()]).toEqual([EVM_CHAIN_IDS.regtest.ethereum, EVM_CHAIN_IDS.regtest.polygon]);
    const crossed = new ChainWatcher(h.orm.em.fork(), {
      source: new EvmBlockSource('ethereum', polygon.client, { chainId: EVM_CHAIN_IDS.regtest.ethereum }),
      network: 'regtest',
      payments: new PaymentService(h.orm.em.fork(), { network: 'regtest' }),
    });
    await expect(crossed.scanOnce()).rejects.toThrow(`ethereum: the node runs chain id ${EVM_CHAIN_IDS.regtest.polygon}, not ${EVM_CHAIN_IDS.regtest.ethereum}`);
  });

  it('starts at the tip, then finds a real ETH payment in the next block and counts it at twelve confirmations', async () => {
    const first = await watcher(eth).scanOnce();
    expect(first.toHeight).toBe(first.tipHeight);
    const request = await createRequest(ETH_ASSET_ID, '0.5');
    expect(request.address).toBe(getAddress(request.address.toLowerCase()));

    // Sent to the lower-case form (what a node answers): the watcher matches it to the checksummed request address.
    const txid = await pay(eth, request.address.toLowerCase(), '0.5');
    await mine(eth, 1);
    const scan = await watcher(eth).scanOnce();
    expect([scan.toHeight - scan.fromHeight, scan.found, scan.recounted]).toEqual([1, 1, 0]);
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [{ amount: '0.5', confirmations: 1, counted: false }] });
    const row = await h.orm.em.fork().findOneOrFail(Payment, { txid });
    expect([row.chain, row.outputIndex, row.address, row.blockHeight]).toEqual(['ethereum', NATIVE_TRANSFER_INDEX, request.address, scan.toHeight]);

    await mine(eth, 10);
    expect(await watcher(eth).scanOnce()).toMatchObject({ found: 0, recounted: 1 });
    expect((await requestState(request.slug)).payments).toEqual([{ amount: '0.5', confirmations: 11, counted: false }]);
    await mine(eth, 1);
    await watcher(eth).scanOnce();
    expect(await requestState(request.slug)).toEqual({ status: 'paid', paid: '0.5', payments: [{ amount: '0.5', confirmations: 12, counted: true }] });
  });

  it('a partial payment, then the rest and more in one block: partial → overpaid, every wei exact, each transaction its own payment', async () => {
    const request = await createRequest(ETH_ASSET_ID, '1');
    await pay(eth, request.address, '0.4');
    await mine(eth, 12);
    await watcher(eth).scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'partial', paid: '0.4' });
    const rest = await pay(eth, request.address, '0.6');
    const more = await pay(eth, request.address, '0.000000000000000001');
    const [block] = await mine(eth, 12);
    await watcher(eth).scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'overpaid', paid: '1.000000000000000001' });
    const rows = await h.orm.em.fork().find(Payment, { txid: { $in: [rest, more] } }, { orderBy: { id: 'asc' } });
    // Both in one block, each its own payment: a transaction's value is index 0 of its txid.
    expect(rows.map((p) => [p.txid, p.outputIndex, p.blockHash]).sort()).toEqual(
      [
        [rest, NATIVE_TRANSFER_INDEX, block],
        [more, NATIVE_TRANSFER_INDEX, block],
      ].sort(),
    );
  });

  it('a reverted transaction carrying value to the address is mined but is no payment; a later plain transfer is', async () => {
    const request = await createRequest(ETH_ASSET_ID, '0.2');
    // Code that always reverts at the request's address (anvil_setCode): a transfer to it is mined with status 0.
    await call(eth, 'anvil_setCode', [request.address, '0x60006000fd']);
    const reverted = await pay(eth, request.address, '0.2', { gas: 100_000n });
    await mine(eth, 12);
    expect((await eth.rpc.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    expect(await balance(eth, request.address)).toBe(0n);
    expect(await watcher(eth).scanOnce()).toMatchObject({ found: 0 });
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [] });

    await call(eth, 'anvil_setCode', [request.address, '0x']);
    await pay(eth, request.address, '0.2');
    await mine(eth, 12);
    expect(await watcher(eth).scanOnce()).toMatchObject({ found: 1 });
    expect(await requestState(request.slug)).toMatchObject({ status: 'paid', paid: '0.2' });
  });

  it('value a contract passes on (an internal transfer) reaches the address but is not seen: only top-level transfers are', async () => {
    const request = await createRequest(ETH_ASSET_ID, '0.3');
    const forwarder = getAddress(`0x${'fe'.repeat(20)}`);
    await call(eth, 'anvil_setCode', [forwarder, forwarderCode(request.address)]);
    const txid = await pay(eth, forwarder, '0.3', { gas: 100_000n });
    await mine(eth, 12);
    expect((await eth.rpc.getTransactionReceipt({ hash: txid })).status).toBe('success');
    expect(await balance(eth, request.address)).toBe(parseEther('0.3'));
    expect(await watcher(eth).scanOnce()).toMatchObject({ found: 0 });
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [] });
  });

  it('a MATIC payment on the polygon node counts at thirty confirmations; an ETH request at the same address is untouched', async () => {
    // A fresh merchant: its first ETH and first MATIC addresses are the same 0x… (one coin-60 key, a cursor per asset).
    const shop = await createMerchant(h, 'Polygon Shop');
    const create = async (assetId: number) => {
      const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ asset_id: assetId, title: 'Same address', amount: '2' }),
      });
      return ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
    };
    const [ethRequest, maticRequest] = [await create(ETH_ASSET_ID), await create(MATIC_ASSET_ID)];
    expect(maticRequest.address).toBe(ethRequest.address);

    await watcher(polygon).scanOnce();
    await pay(polygon, maticRequest.address, '2');
    await mine(polygon, 29);
    await watcher(polygon).scanOnce();
    expect(await requestState(maticRequest.id)).toEqual({ status: 'pending', paid: '0', payments: [{ amount: '2', confirmations: 29, counted: false }] });
    await mine(polygon, 1);
    await watcher(polygon).scanOnce();
    expect(await requestState(maticRequest.id)).toEqual({ status: 'paid', paid: '2', payments: [{ amount: '2', confirmations: 30, counted: true }] });
    await watcher(eth).scanOnce();
    expect(await requestState(ethRequest.id)).toEqual({ status: 'pending', paid: '0', payments: [] });
    const row = await h.orm.em.fork().findOneOrFail(Payment, { address: maticRequest.address });
    expect(row.chain).toBe('polygon');
  });

  it('a reorg that removes a counted payment moves the request back; the same transaction mined again counts again', async () => {
    const request = await createRequest(ETH_ASSET_ID, '0.7');
    const txid = await pay(eth, request.address, '0.7');
    const [paidIn] = await mine(eth, 12);
    await watcher(eth).scanOnce();
    expect(await requestState(request.slug)).toMatchObject({ status: 'paid', paid: '0.7' });
    const raw = (await call(eth, 'eth_getRawTransactionByHash', [txid])) as Hex;

    // The twelve blocks from the payment's are replaced by twelve empty ones: the transaction is gone from the chain.
    const height = (await h.orm.em.fork().findOneOrFail(Payment, { txid })).blockHeight!;
    const source = new EvmBlockSource('ethereum', eth.client);
    const readBefore = await source.block(height);
    await call(eth, 'anvil_reorg', [12, []]);
    expect(await eth.client.blockHash(height)).not.toBe(paidIn);
    const scan = await watcher(eth).scanOnce();
    expect(scan.reorg).toMatchObject({ orphaned: 1, reversed: [request.slug] });
    expect(await requestState(request.slug)).toEqual({ status: 'pending', paid: '0', payments: [{ amount: '0.7', confirmations: 0, counted: false }] });
    const orphaned = await h.orm.em.fork().findOneOrFail(Payment, { txid });
    expect([orphaned.orphanedAt, orphaned.orphanedBlockHash, orphaned.blockHash]).toEqual([expect.any(Date), paidIn, null]);

    // The signed transaction broadcast again (same hash) and mined on the new branch, behind another transaction that
    // pays a higher tip (so at another position in its block): the same payment, found again with its new block and
    // counted at twelve again, not a second payment.
    const [, other] = await call<Hex[]>(eth, 'eth_accounts');
    const ahead = await call<Hash>(eth, 'eth_sendTransaction', [{ from: other, to: `0x${'33'.repeat(20)}`, value: '0x1', maxFeePerGas: `0x${parseGwei('200').toString(16)}`, maxPriorityFeePerGas: `0x${parseGwei('100').toString(16)}` }]);
    expect(await call(eth, 'eth_sendRawTransaction', [raw])).toBe(txid);
    const [minedAgainIn] = await mine(eth, 12);
    expect([(await eth.rpc.getTransaction({ hash: ahead })).transactionIndex, (await eth.rpc.getTransaction({ hash: txid })).transactionIndex]).toEqual([0, 1]);
    // A receipt read for a block that has since left the chain stops the scan (the next one undoes the reorg).
    await expect(source.succeeded(readBefore, readBefore.transfers.filter((t) => t.txid === txid))).rejects.toBeInstanceOf(EvmChainChangedError);
    const rescan = await watcher(eth).scanOnce();
    expect(rescan.found).toBe(1);
    expect(await requestState(request.slug)).toEqual({ status: 'paid', paid: '0.7', payments: [{ amount: '0.7', confirmations: 12, counted: true }] });
    const again = await h.orm.em.fork().findOneOrFail(Payment, { txid });
    expect([again.orphanedAt, again.blockHash, again.outputIndex]).toEqual([null, minedAgainIn, NATIVE_TRANSFER_INDEX]);
  });
});

describe('EvmRpcClient', () => {
  it('sends a URL\'s user and password as basic auth, and a failure names the method and host, never the credentials or path', async () => {
    const url = new URL(nodeUrl('CRYPTO_ETH_RPC_URL'));
    url.username = 'watcher';
    url.password = 's3cret-password';
    expect(await new EvmRpcClient({ url: url.toString() }).chainId()).toBe(EVM_CHAIN_IDS.regtest.ethereum);

    const closed = new URL(url);
    closed.port = '1';
    closed.pathname = '/v3/api-key-in-path';
    const error = await new EvmRpcClient({ url: closed.toString(), timeoutMs: 2_000 }).blockNumber().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvmRpcError);
    const text = `${(error as Error).message} ${(error as Error).stack ?? ''}`;
    expect((error as Error).message).toMatch(/^eth_blockNumber at 127\.0\.0\.1:1: /);
    expect(text).not.toContain('s3cret-password');
    expect(text).not.toContain('api-key-in-path');
  });

  it('an HTTP error answer is an EvmRpcError with the status, without the path', async () => {
    // The gateway itself at a path that is no JSON-RPC endpoint: it refuses the POST.
    const error = await new EvmRpcClient({ url: `${h.service.url}/api/merchant/v1/account` }).blockNumber().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvmRpcError);
    expect((error as Error).message).toMatch(/^eth_blockNumber at 127\.0\.0\.1:\d+: HTTP request failed\..* HTTP 4\d\d$/);
    expect((error as Error).message).not.toContain('/api/merchant');
  });

  it('a receipt the node does not have is an EvmRpcError naming the method', async () => {
    const error = await eth.client.receipt(`0x${'00'.repeat(32)}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvmRpcError);
    expect((error as Error).message).toMatch(/^eth_getTransactionReceipt at 127\.0\.0\.1:\d+: /);
  });
});
