// `admin crypto pay` for ETH and MATIC on regtest with the chain's node configured (issue 12 §6, `npm start -- --chains`
// runs an anvil node for ethereum): the real entry point (the root dispatcher) sends a real value transfer from the
// node's first dev account to the request's address through the run's anvil nodes (CRYPTO_ETH_RPC_URL,
// CRYPTO_MATIC_RPC_URL, started by the test runner with --no-mining), for the exact amount in wei, and writes nothing
// itself; the chain watcher records it. The merchant gets receive keys of its own (a BIP32 account no other test file
// uses), so a transfer left in the shared nodes' pool pays no other test's request.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, type Hash, type Hex, type PublicClient } from 'viem';
import { generateSecretBoxKey, secretBoxFor } from '@tributary/kit';
import { AccountAdminService } from '../src/modules/accounts/index.js';
import { testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const dispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));
const KEY = generateSecretBoxKey();
const ETH_ASSET_ID = 2;
const MATIC_ASSET_ID = 4;
/** This file's own BIP32 account of the test mnemonic (account ids of the harness start at 1). */
const OWN_KEYS_ACCOUNT = 1_700_000_612;

type Variable = 'CRYPTO_ETH_RPC_URL' | 'CRYPTO_MATIC_RPC_URL';

let h: Harness;
let merchant: TestMerchant;
let eth: PublicClient;
let polygon: PublicClient;

function nodeUrl(variable: Variable): string {
  const url = process.env[variable];
  if (!url) throw new Error(`${variable} is not set: run through \`npm test\`, which starts anvil (npm package @foundry-rs/anvil).`);
  return url;
}

interface Run {
  code: number;
  body: Record<string, unknown>;
}

/** The dispatcher with --json, as an operator runs it next to `npm start -- --chains`. */
function pay(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [dispatcher, 'crypto', 'pay', ...args, '--json'],
      { env: { ...process.env, DATABASE_URL: h.db.url, SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: '127.0.0.1:1', ...env } },
      (error, stdout) => {
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        resolve({ code: error ? Number(error.code ?? 1) : 0, body: JSON.parse(lines[0]!) as Record<string, unknown> });
      },
    );
  });
}

/** What `npm start -- --chains` gives the dispatcher (its own ETH node; MATIC only when a node URL is set). */
const regtest = (): NodeJS.ProcessEnv => ({ CRYPTO_NETWORK: 'regtest', CRYPTO_ETH_RPC_URL: nodeUrl('CRYPTO_ETH_RPC_URL'), CRYPTO_MATIC_RPC_URL: nodeUrl('CRYPTO_MATIC_RPC_URL') });

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

/** Any JSON-RPC method, the dev accounts' and anvil's own included (viem's public client types only the public ones). */
async function call<T>(node: PublicClient, method: string, params: unknown[] = []): Promise<T> {
  return (await (node.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params })) as T;
}

/** Transactions waiting in the node's pool or mined, to `address` (anvil's txpool_content, then the recent blocks). */
async function transfersTo(node: PublicClient, address: string): Promise<number> {
  const pool = await call<{ pending: Record<string, Record<string, { to: string | null }>>; queued: Record<string, Record<string, { to: string | null }>> }>(node, 'txpool_content');
  const pooled = [...Object.values(pool.pending), ...Object.values(pool.queued)].flatMap((byNonce) => Object.values(byNonce)).filter((tx) => tx.to?.toLowerCase() === address.toLowerCase()).length;
  const tip = await node.getBlockNumber({ cacheTime: 0 });
  let mined = 0;
  for (let height = tip; height >= 0n && height > tip - 20n; height--) {
    const block = await node.getBlock({ blockNumber: height, includeTransactions: true });
    mined += block.transactions.filter((tx) => tx.to?.toLowerCase() === address.toLowerCase()).length;
  }
  return pooled + mined;
}

beforeAll(async () => {
  eth = createPublicClient({ transport: http(nodeUrl('CRYPTO_ETH_RPC_URL'), { retryCount: 0 }) });
  polygon = createPublicClient({ transport: http(nodeUrl('CRYPTO_MATIC_RPC_URL'), { retryCount: 0 }) });
  h = await startHarness({ env: { CRYPTO_NETWORK: 'regtest', SECRETS_ENCRYPTION_KEY: KEY } });
  merchant = await createMerchant(h, 'Admin Pay EVM Shop');
  const own = testMnemonicAccountKeys(OWN_KEYS_ACCOUNT);
  await new AccountAdminService(h.orm.em.fork(), secretBoxFor({ NODE_ENV: 'test' }), 'regtest').setReceiveKeys(merchant.accountId, { ETH: own.ETH, MATIC: own.MATIC });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('admin crypto pay on regtest with CRYPTO_ETH_RPC_URL / CRYPTO_MATIC_RPC_URL (anvil)', () => {
  it('ETH: a real transfer from the first dev account to the request address, exactly the amount in wei, nothing recorded', async () => {
    const request = await createRequest(ETH_ASSET_ID, '2');
    const [devAccount] = await call<Hex[]>(eth, 'eth_accounts');
    // 1 ETH and 1 wei: a float would lose the last wei.
    const { code, body } = await pay(regtest(), request.id, '1.000000000000000001');
    expect(code).toBe(0);
    const sent = body['sent'] as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(['address', 'amount', 'asset', 'chain', 'network', 'txid', 'wallet']);
    expect(sent).toMatchObject({ chain: 'ethereum', network: 'regtest', asset: 'ETH', address: request.address, amount: '1.000000000000000001' });
    expect((sent['wallet'] as string).toLowerCase()).toBe(devAccount!.toLowerCase());
    expect(body['payment_request']).toEqual({ id: request.id });
    const hash = sent['txid'] as Hash;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    // The node has it (in its pool until a block mines it): from the dev account, to the request's address, the exact wei.
    const tx = await eth.getTransaction({ hash });
    expect(tx.from.toLowerCase()).toBe(devAccount!.toLowerCase());
    expect(tx.to?.toLowerCase()).toBe(request.address.toLowerCase());
    expect(tx.value).toBe(1_000_000_000_000_000_001n);
    expect(tx.chainId).toBe(31337);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('MATIC: sent on the polygon node when its URL is set', async () => {
    const request = await createRequest(MATIC_ASSET_ID, '1');
    const { code, body } = await pay(regtest(), request.id, '0.25');
    expect(code).toBe(0);
    const sent = body['sent'] as Record<string, unknown>;
    expect(sent).toMatchObject({ chain: 'polygon', network: 'regtest', asset: 'MATIC', address: request.address, amount: '0.25' });
    const tx = await polygon.getTransaction({ hash: sent['txid'] as Hash });
    expect(tx.to?.toLowerCase()).toBe(request.address.toLowerCase());
    expect(tx.value).toBe(250_000_000_000_000_000n);
    expect(tx.chainId).toBe(31338);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('the text output names the transaction hash and the sending account, and says the chain watcher records it', async () => {
    const request = await createRequest(ETH_ASSET_ID, '1');
    const text = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [dispatcher, 'crypto', 'pay', request.id, '0.1'], { env: { ...process.env, DATABASE_URL: h.db.url, SECRETS_ENCRYPTION_KEY: KEY, ...regtest() } }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    const hash = /txid (0x[0-9a-f]{64})/.exec(text)?.[1] as Hash | undefined;
    expect(hash).toBeDefined();
    expect(text).toContain(`Sent 0.1 ETH on ethereum (regtest) to ${request.address} from account "0x`);
    expect(text).toContain('the chain watcher records the payment');
    expect(text).toContain('counts it at 12 confirmations');
    expect((await eth.getTransaction({ hash: hash! })).value).toBe(100_000_000_000_000_000n);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('refuses a node of the wrong chain id, --txid/--confirmations and an amount finer than wei: exit 2, nothing sent', async () => {
    const request = await createRequest(MATIC_ASSET_ID, '1');
    // ETH and MATIC addresses come from one key (coin 60): this address may be an ETH request's above, already paid.
    const before = { eth: await transfersTo(eth, request.address), polygon: await transfersTo(polygon, request.address) };
    // The ethereum node given for polygon: the same address is another request's there.
    const wrongNode = await pay({ ...regtest(), CRYPTO_MATIC_RPC_URL: nodeUrl('CRYPTO_ETH_RPC_URL') }, request.id, '0.1');
    expect(wrongNode).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument' } } });
    expect((wrongNode.body['error'] as { message: string }).message).toContain('runs chain id 31337, not 31338');
    for (const args of [
      [request.id, '0.1', '--txid', `0x${'a'.repeat(64)}`],
      [request.id, '0.1', '--confirmations', '6'],
    ]) {
      expect(await pay(regtest(), ...args)).toMatchObject({ code: 2, body: { error: { code: 'usage' } } });
    }
    for (const amount of ['0.0000000000000000001', '0', '-1']) {
      expect(await pay(regtest(), request.id, amount)).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument' } } });
    }
    expect({ eth: await transfersTo(eth, request.address), polygon: await transfersTo(polygon, request.address) }).toEqual(before);
    expect(await paymentsOf(request.id)).toBe(0);
  });

  it('writes the payment directly as before on testnet, or for MATIC without a node URL', async () => {
    const onTestnet = await createRequest(ETH_ASSET_ID, '0.5');
    await h.orm.em.fork().getConnection().execute('update "payment_requests" set "network" = \'testnet\' where "slug" = ?', [onTestnet.id]);
    const written = await pay({ ...regtest(), CRYPTO_NETWORK: 'testnet' }, onTestnet.id, '0.5');
    expect(written).toMatchObject({ code: 0, body: { payment: { chain: 'ethereum', amount: '0.5', counted: true }, payment_request: { status: 'paid' } } });
    expect(await paymentsOf(onTestnet.id)).toBe(1);
    expect(await transfersTo(eth, onTestnet.address)).toBe(0);

    // npm start -- --chains runs no polygon node: MATIC is written as before.
    const matic = await createRequest(MATIC_ASSET_ID, '1');
    const noNode = await pay({ ...regtest(), CRYPTO_MATIC_RPC_URL: '' }, matic.id, '1');
    expect(noNode).toMatchObject({ code: 0, body: { payment: { chain: 'polygon', amount: '1', counted: true }, payment_request: { status: 'paid' } } });
    expect(await paymentsOf(matic.id)).toBe(1);
    expect(await transfersTo(polygon, matic.address)).toBe(0);
  });
});
