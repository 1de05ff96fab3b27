// `admin crypto pay` on regtest with the chain's node configured (issue 12 §6, `npm start -- --chains`): the real entry
// point (the root dispatcher) sends a real transaction from a node wallet to the request's address through the run's
// litecoind (CRYPTO_LTC_RPC_URL, started by the test runner), and writes nothing itself; the chain watcher records it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateSecretBoxKey } from '@tributary/kit';
import { UtxoRpcClient, UtxoRpcError, outputAddress, type RpcTransaction } from '../src/modules/chain-nodes/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const dispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));
const KEY = generateSecretBoxKey();
const LTC_ASSET_ID = 3;
const BTC_ASSET_ID = 1;
const PAY_WALLET = 'tributary-test-admin-pay';

let node: UtxoRpcClient;
let h: Harness;
let merchant: TestMerchant;

function nodeUrl(): string {
  const url = process.env['CRYPTO_LTC_RPC_URL'];
  if (!url) throw new Error('CRYPTO_LTC_RPC_URL is not set: run through `npm test`, which starts litecoind in regtest (Debian package litecoind).');
  return url;
}

interface Run {
  code: number;
  body: Record<string, unknown>;
  stderr: string;
}

/** The dispatcher with --json, as an operator runs it next to `npm start -- --chains`. */
function pay(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [dispatcher, 'crypto', 'pay', ...args, '--json'],
      { env: { ...process.env, DATABASE_URL: h.db.url, SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: '127.0.0.1:1', ...env } },
      (error, stdout, stderr) => {
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        resolve({ code: error ? Number(error.code ?? 1) : 0, body: JSON.parse(lines[0]!) as Record<string, unknown>, stderr });
      },
    );
  });
}

const regtest = (): NodeJS.ProcessEnv => ({ CRYPTO_NETWORK: 'regtest', CRYPTO_LTC_RPC_URL: nodeUrl(), CRYPTO_PAY_WALLET: PAY_WALLET });

async function createRequest(assetId: number, amount: string): Promise<{ id: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: assetId, title: 'Admin pay order', amount }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { payment_request: { id: string; address: string } }).payment_request;
}

async function paymentsOf(slug: string): Promise<number> {
  const rows = await h.orm.em
    .fork()
    .getConnection()
    .execute<Array<{ n: string }>>('select count(*) as n from "payments" p join "payment_requests" r on r."id" = p."payment_request_id" where r."slug" = ?', [slug]);
  return Number(rows[0]!.n);
}

/** What the test wallet has sent to `address` (listtransactions names the receiving address of a send). */
async function sentTo(address: string): Promise<number> {
  const txs = await node.call<Array<{ category: string; address?: string }>>('listtransactions', ['*', 1000, 0, true], { wallet: PAY_WALLET });
  return txs.filter((tx) => tx.category === 'send' && tx.address === address).length;
}

beforeAll(async () => {
  node = new UtxoRpcClient({ url: nodeUrl() });
  // The wallet `pay` sends from, funded here: coinbase outputs mature after 100 blocks.
  if (!(await node.call<string[]>('listwallets')).includes(PAY_WALLET)) {
    await node.call('createwallet', [PAY_WALLET]).catch(async (error: unknown) => {
      if (!(error instanceof UtxoRpcError)) throw error;
      await node.call('loadwallet', [PAY_WALLET]);
    });
  }
  const miningAddress = await node.call<string>('getnewaddress', ['', 'bech32'], { wallet: PAY_WALLET });
  await node.call('generatetoaddress', [101, miningAddress]);
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest', SECRETS_ENCRYPTION_KEY: KEY } });
  merchant = await createMerchant(h, 'Admin Pay Regtest Shop');
}, 90_000);
afterAll(async () => {
  await h?.close();
});

describe('admin crypto pay on regtest with CRYPTO_LTC_RPC_URL', () => {
  it('sends a real transaction paying the request address the exact amount, and records nothing itself', async () => {
    const request = await createRequest(LTC_ASSET_ID, '0.3');
    const { code, body } = await pay(regtest(), request.id, '0.12345678');
    expect(code).toBe(0);
    const sent = body['sent'] as Record<string, unknown>;
    expect(sent).toMatchObject({ chain: 'litecoin', network: 'regtest', asset: 'LTC', address: request.address, amount: '0.12345678', wallet: PAY_WALLET });
    expect(body['payment_request']).toEqual({ id: request.id });
    const txid = sent['txid'] as string;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);

    // The node has it (in its mempool: no txindex needed), paying exactly that amount to exactly that address.
    const tx = await node.call<RpcTransaction>('getrawtransaction', [txid, true]);
    expect(tx.vout.filter((out) => outputAddress(out) === request.address).map((out) => out.value)).toEqual(['0.12345678']);
    const inWallet = await node.call<{ txid: string; confirmations: number }>('gettransaction', [txid], { wallet: PAY_WALLET });
    expect(inWallet).toMatchObject({ txid, confirmations: 0 });
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('the text output names the txid and says the chain watcher records it', async () => {
    const request = await createRequest(LTC_ASSET_ID, '0.3');
    const text = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [dispatcher, 'crypto', 'pay', request.id, '0.1'], { env: { ...process.env, DATABASE_URL: h.db.url, SECRETS_ENCRYPTION_KEY: KEY, ...regtest() } }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    const txid = /txid ([0-9a-f]{64})/.exec(text)?.[1];
    expect(txid).toBeDefined();
    expect(text).toContain(`Sent 0.1 LTC on litecoin (regtest) to ${request.address}`);
    expect(text).toContain('the chain watcher records the payment');
    expect((await node.call<RpcTransaction>('getrawtransaction', [txid, true])).vout.some((out) => outputAddress(out) === request.address && out.value === '0.10000000')).toBe(true);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('refuses --txid and --confirmations (the chain decides them), a bad amount, and a request of another network: exit 2, nothing sent', async () => {
    const request = await createRequest(LTC_ASSET_ID, '0.3');
    for (const args of [
      [request.id, '0.1', '--txid', 'a'.repeat(64)],
      [request.id, '0.1', '--confirmations', '6'],
    ]) {
      const run = await pay(regtest(), ...args);
      expect(run).toMatchObject({ code: 2, body: { error: { code: 'usage' } } });
    }
    for (const amount of ['0.123456789', '0', '-1', '1e-3']) {
      const run = await pay(regtest(), request.id, amount);
      expect(run).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument' } } });
    }
    // A request made before a switch to regtest: its address is not watched here, so no coins go to it.
    await h.orm.em.fork().getConnection().execute('update "payment_requests" set "network" = \'testnet\' where "slug" = ?', [request.id]);
    const other = await pay(regtest(), request.id, '0.1');
    expect(other).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument' } } });
    expect((other.body['error'] as { message: string }).message).toContain('made on testnet');
    expect(await sentTo(request.address)).toBe(0);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('writes the payment directly as before on testnet, or for a chain without a node URL', async () => {
    const litecoin = await createRequest(LTC_ASSET_ID, '0.3');
    await h.orm.em.fork().getConnection().execute('update "payment_requests" set "network" = \'testnet\' where "slug" = ?', [litecoin.id]);
    const onTestnet = await pay({ ...regtest(), CRYPTO_NETWORK: 'testnet' }, litecoin.id, '0.3');
    expect(onTestnet).toMatchObject({ code: 0, body: { payment: { chain: 'litecoin', amount: '0.3', counted: true }, payment_request: { status: 'paid' } } });
    expect(await paymentsOf(litecoin.id)).toBe(1);

    const bitcoin = await createRequest(BTC_ASSET_ID, '0.01');
    const noNode = await pay(regtest(), bitcoin.id, '0.01');
    expect(noNode).toMatchObject({ code: 0, body: { payment: { chain: 'bitcoin', amount: '0.01', counted: true }, payment_request: { status: 'paid' } } });
    expect(await paymentsOf(bitcoin.id)).toBe(1);
  });
});
