// `npm start -- --chains` (issue 12 §6): the option and its variable, the refusals, the state file the admin dispatcher
// reads (bin/stack-state.mjs), and a real litecoind and a real anvil started the way npm start starts them: fixed RPC
// ports, password kept, demo wallet funded once, miners on timers, everything kept across a restart (anvil's chain
// through its --state file).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { anvilRpc } from '../src/anvil.js';
import { CHAINS_NETWORK, DEMO_WALLET, FUNDING_BLOCKS, assertChainsPlan, chainRows, chainsPortClaims, chainsRequested, evmBlockInterval, removeChainsState, startChains, writeChainsState, type RunningChains } from '../src/chains.js';
import { loadStackEnv } from '../src/config.js';
import { StackError } from '../src/errors.js';
import { LITECOIND, litecoinRpc, litecoindInstalled } from '../src/litecoin.js';
import { stackPaths, type StackPaths } from '../src/paths.js';
import { freeLoopbackPort } from '@tributary/kit';
import { createProgress } from '../src/progress.js';
import { parseStartArgs } from '../src/start-args.js';
import { Supervisor } from '../src/supervisor.js';

/** anvil's first dev account (the public mnemonic "test test … junk"), as eth_accounts answers it. */
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

type StateEnv = (file: string, service: string, env: NodeJS.ProcessEnv) => Record<string, string>;
const stateModule = pathToFileURL(fileURLToPath(new URL('../bin/stack-state.mjs', import.meta.url))).href;
let stateEnv: StateEnv;
let dir: string;

beforeAll(async () => {
  stateEnv = ((await import(stateModule)) as { stateEnv: StateEnv }).stateEnv;
  dir = await mkdtemp(path.join(os.tmpdir(), 'stack-chains-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--chains and TRIBUTARY_CHAINS', () => {
  it('the flag turns it on; without it start is as before', () => {
    expect(parseStartArgs(['--chains'], 'usage').chains).toBe(true);
    expect(parseStartArgs(['--only', 'crypto', '--chains', '--verbose'], 'usage')).toEqual({ verbose: true, infraOnly: false, chains: true, only: ['crypto'] });
    expect(parseStartArgs([], 'usage')).toEqual({ verbose: false, infraOnly: false, chains: false });
    expect(() => parseStartArgs(['--chain'], 'usage')).toThrow(/unknown option for start: --chain/);
  });

  it('TRIBUTARY_CHAINS=1/true/yes turns it on, 0/false/no/empty/unset leaves it off, anything else is refused by name', () => {
    for (const on of ['1', 'true', 'YES', ' yes ']) expect(chainsRequested(false, loadStackEnv({ TRIBUTARY_CHAINS: on }))).toBe(true);
    for (const off of ['0', 'false', 'no', '']) expect(chainsRequested(false, loadStackEnv({ TRIBUTARY_CHAINS: off }))).toBe(false);
    expect(chainsRequested(false, loadStackEnv({}))).toBe(false);
    expect(chainsRequested(true, loadStackEnv({}))).toBe(true);
    expect(() => loadStackEnv({ TRIBUTARY_CHAINS: 'maybe' })).toThrow(/TRIBUTARY_CHAINS="maybe"/);
  });

  it('defaults: RPC ports 19443 (litecoin) and 18545 (anvil), a block every 10 s; the interval may be 0 (no mining) but not negative', () => {
    expect(loadStackEnv({})).toMatchObject({ LTC_RPC_PORT: 19443, ETH_RPC_PORT: 18545, CHAINS_BLOCK_INTERVAL: 10 });
    expect(loadStackEnv({}).CHAINS_EVM_BLOCK_INTERVAL).toBeUndefined();
    expect(chainsPortClaims(loadStackEnv({ ETH_RPC_PORT: '28545' })).map((c) => [c.variable, c.port])).toEqual([['LTC_RPC_PORT', 19443], ['ETH_RPC_PORT', 28545]]);
    expect(() => loadStackEnv({ ETH_RPC_PORT: '0' })).toThrow(/ETH_RPC_PORT/);
    expect(() => loadStackEnv({ CHAINS_EVM_BLOCK_INTERVAL: 'fast' })).toThrow(/CHAINS_EVM_BLOCK_INTERVAL/);
    expect(loadStackEnv({ LTC_RPC_PORT: '29443', CHAINS_BLOCK_INTERVAL: '0' })).toMatchObject({ LTC_RPC_PORT: 29443, CHAINS_BLOCK_INTERVAL: 0 });
    expect(() => loadStackEnv({ CHAINS_BLOCK_INTERVAL: '-1' })).toThrow(/CHAINS_BLOCK_INTERVAL/);
    expect(() => loadStackEnv({ LTC_RPC_PORT: '70000' })).toThrow(/LTC_RPC_PORT/);
  });

  it("anvil's blocks: half of CHAINS_BLOCK_INTERVAL rounded up (12 ETH confirmations in the time of 6 LTC ones), or CHAINS_EVM_BLOCK_INTERVAL", () => {
    const interval = (env: Record<string, string>): number => evmBlockInterval(loadStackEnv(env));
    expect(interval({})).toBe(5);
    expect(interval({ CHAINS_BLOCK_INTERVAL: '1' })).toBe(1);
    expect(interval({ CHAINS_BLOCK_INTERVAL: '0' })).toBe(0);
    expect(interval({ CHAINS_BLOCK_INTERVAL: '7', CHAINS_EVM_BLOCK_INTERVAL: '' })).toBe(4);
    expect(interval({ CHAINS_EVM_BLOCK_INTERVAL: '2' })).toBe(2);
    expect(interval({ CHAINS_BLOCK_INTERVAL: '0', CHAINS_EVM_BLOCK_INTERVAL: '3' })).toBe(3);
    expect(interval({ CHAINS_EVM_BLOCK_INTERVAL: '0' })).toBe(0);
  });

  it('is refused without the crypto service, and against another CRYPTO_NETWORK', () => {
    expect(() => assertChainsPlan(['bnpl'], false, {})).toThrow(StackError);
    expect(() => assertChainsPlan(['bnpl'], true, {})).not.toThrow();
    expect(() => assertChainsPlan(['crypto'], false, { CRYPTO_NETWORK: 'testnet' })).toThrow(/CRYPTO_NETWORK=testnet/);
    expect(() => assertChainsPlan(['crypto'], false, { CRYPTO_NETWORK: 'regtest' })).not.toThrow();
  });
});

describe('.stack/chains.json (npm start writes it, the admin dispatcher reads it)', () => {
  const vars = { CRYPTO_NETWORK: 'regtest', CRYPTO_LTC_RPC_URL: 'http://tributary:pw@127.0.0.1:19443', CRYPTO_PAY_WALLET: DEMO_WALLET };

  it("gives a service's commands its variables while the start that wrote it runs; explicit ones win", () => {
    const file = path.join(dir, 'state', 'chains.json');
    writeChainsState(file, { pid: process.pid, services: { crypto: vars } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(stateEnv(file, 'crypto', {})).toEqual(vars);
    expect(stateEnv(file, 'crypto', { CRYPTO_NETWORK: 'testnet', CRYPTO_PAY_WALLET: ' ' })).toEqual({ CRYPTO_LTC_RPC_URL: vars.CRYPTO_LTC_RPC_URL, CRYPTO_PAY_WALLET: DEMO_WALLET });
    expect(stateEnv(file, 'bnpl', {})).toEqual({});
    removeChainsState(file);
    expect(stateEnv(file, 'crypto', {})).toEqual({});
  });

  it('is ignored when the start that wrote it is gone, or it is not JSON', () => {
    const file = path.join(dir, 'stale.json');
    // A pid that cannot be running: above the kernel's pid_max.
    writeChainsState(file, { pid: 2 ** 22 + 1, services: { crypto: vars } });
    expect(stateEnv(file, 'crypto', {})).toEqual({});
    writeFileSync(file, '{not json');
    expect(stateEnv(file, 'crypto', {})).toEqual({});
  });
});

describe('the regtest nodes of npm start -- --chains (real litecoind, real anvil)', () => {
  let paths: StackPaths;
  let supervisor: Supervisor | undefined;
  const lines: string[] = [];

  beforeAll(() => {
    if (!litecoindInstalled()) throw new Error(`${LITECOIND} is missing: apt-get install -y litecoind (npm test does it when it runs as root)`);
    paths = stackPaths(path.join(dir, 'repo'));
  });
  afterAll(async () => {
    await supervisor?.stopAll();
  });

  async function start(env: Record<string, string>): Promise<RunningChains> {
    supervisor = new Supervisor({ logDir: paths.logs });
    return startChains({ env: loadStackEnv(env), paths, supervisor, progress: createProgress('test', (line) => lines.push(line)) });
  }

  it('start on the fixed ports with the kept password, fund the demo wallet once, mine on their timers, and keep it all across a restart', async () => {
    const port = await freeLoopbackPort();
    const ethPort = await freeLoopbackPort();
    const first = await start({ LTC_RPC_PORT: String(port), ETH_RPC_PORT: String(ethPort), CHAINS_BLOCK_INTERVAL: '1' });
    const password = readFileSync(paths.litecoinRpcPassword, 'utf8').trim();
    expect(statSync(paths.litecoinRpcPassword).mode & 0o777).toBe(0o600);
    expect(first.litecoin.rpcUrl).toBe(`http://tributary:${password}@127.0.0.1:${port}`);
    // anvil: the fixed port, the regtest chain id crypto expects, a new chain, its first dev account paying, a block a second.
    const ethUrl = `http://127.0.0.1:${ethPort}`;
    expect(first.ethereum).toEqual({ rpcUrl: ethUrl, rpcPort: ethPort, chainId: 31337, account: DEV_ACCOUNT, height: 0, stateLoaded: false, blockIntervalSeconds: 1 });
    expect(first.serviceEnv).toEqual({ CRYPTO_NETWORK: CHAINS_NETWORK, CRYPTO_LTC_RPC_URL: first.litecoin.rpcUrl, CRYPTO_ETH_RPC_URL: ethUrl });
    // A payment waiting in anvil's pool: the timer mines it.
    const tx = await anvilRpc<string>(ethUrl, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, to: '0x000000000000000000000000000000000000dead', value: '0x2a' }]);
    expect(stateEnv(paths.chainsState, 'crypto', {})).toEqual({ ...first.serviceEnv, CRYPTO_PAY_WALLET: DEMO_WALLET });
    expect(first.litecoin).toMatchObject({ wallet: DEMO_WALLET, fundedNow: true, height: FUNDING_BLOCKS });
    expect(await litecoinRpc<number>(first.litecoin.rpcUrl, 'getbalance', [], { wallet: DEMO_WALLET })).toBeGreaterThan(0);
    // The table shows where and how, never the password.
    expect(chainRows(first, paths).flat().join(' ')).not.toContain(password);
    expect(chainRows(first, paths).flat().join(' ')).toContain(`127.0.0.1:${port}`);
    expect(chainRows(first, paths).flat().join(' ')).toContain(`${ethUrl} (chain id 31337`);

    // The miners: a block a second on each chain.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const mined = await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount');
    expect(mined).toBeGreaterThanOrEqual(FUNDING_BLOCKS + 2);
    expect(Number(await anvilRpc<string>(ethUrl, 'eth_blockNumber'))).toBeGreaterThanOrEqual(2);
    const receipt = await anvilRpc<{ blockNumber: string; blockHash: string; status: string }>(ethUrl, 'eth_getTransactionReceipt', [tx]);
    expect(receipt.status).toBe('0x1');

    // Stopped: no more blocks, the state file gone; then the nodes stop like npm start stops them.
    first.stop();
    expect(stateEnv(paths.chainsState, 'crypto', {})).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const afterStop = await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount');
    const ethAfterStop = Number(await anvilRpc<string>(ethUrl, 'eth_blockNumber'));
    const ethTip = (await anvilRpc<{ hash: string }>(ethUrl, 'eth_getBlockByNumber', ['latest', false])).hash;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount')).toBe(afterStop);
    expect(Number(await anvilRpc<string>(ethUrl, 'eth_blockNumber'))).toBe(ethAfterStop);
    await supervisor!.stopAll();
    // anvil wrote its chain when the supervisor stopped it (SIGTERM).
    expect(existsSync(paths.anvilState)).toBe(true);

    // Restarted on the same data: same password, the wallet loaded (not created, not funded again), both chains kept
    // (anvil's blocks with the same hashes, the mined payment's receipt), and no mining with the interval 0.
    const second = await start({ LTC_RPC_PORT: String(port), ETH_RPC_PORT: String(ethPort), CHAINS_BLOCK_INTERVAL: '0' });
    expect(second.litecoin.rpcUrl).toBe(first.litecoin.rpcUrl);
    expect(second.litecoin).toMatchObject({ fundedNow: false, height: afterStop });
    expect(lines.some((line) => line.includes(`Litecoin demo wallet "${DEMO_WALLET}" — loaded`))).toBe(true);
    expect(second.ethereum).toMatchObject({ rpcUrl: ethUrl, stateLoaded: true, height: ethAfterStop, blockIntervalSeconds: 0 });
    expect((await anvilRpc<{ hash: string }>(ethUrl, 'eth_getBlockByNumber', [`0x${ethAfterStop.toString(16)}`, false])).hash).toBe(ethTip);
    expect(await anvilRpc<{ blockHash: string }>(ethUrl, 'eth_getTransactionReceipt', [tx])).toMatchObject({ blockHash: receipt.blockHash, status: '0x1' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(Number(await anvilRpc<string>(ethUrl, 'eth_blockNumber'))).toBe(ethAfterStop);
    second.stop();
  }, 120_000);
});
