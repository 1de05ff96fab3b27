// `npm start -- --chains` (issue 12 §6): the option and its variable, the refusals, the state file the admin dispatcher
// reads (bin/stack-state.mjs), and a real litecoind started the way npm start starts it: fixed RPC port, password kept,
// demo wallet funded once, a miner on a timer, everything kept across a restart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHAINS_NETWORK, DEMO_WALLET, FUNDING_BLOCKS, assertChainsPlan, chainRows, chainsRequested, removeChainsState, startChains, writeChainsState, type RunningChains } from '../src/chains.js';
import { loadStackEnv } from '../src/config.js';
import { StackError } from '../src/errors.js';
import { LITECOIND, litecoinRpc, litecoindInstalled } from '../src/litecoin.js';
import { stackPaths, type StackPaths } from '../src/paths.js';
import { freePort } from '../src/ports.js';
import { createProgress } from '../src/progress.js';
import { parseStartArgs } from '../src/start-args.js';
import { Supervisor } from '../src/supervisor.js';

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

  it('defaults: RPC port 19443, a block every 10 s; the interval may be 0 (no mining) but not negative', () => {
    expect(loadStackEnv({})).toMatchObject({ LTC_RPC_PORT: 19443, CHAINS_BLOCK_INTERVAL: 10 });
    expect(loadStackEnv({ LTC_RPC_PORT: '29443', CHAINS_BLOCK_INTERVAL: '0' })).toMatchObject({ LTC_RPC_PORT: 29443, CHAINS_BLOCK_INTERVAL: 0 });
    expect(() => loadStackEnv({ CHAINS_BLOCK_INTERVAL: '-1' })).toThrow(/CHAINS_BLOCK_INTERVAL/);
    expect(() => loadStackEnv({ LTC_RPC_PORT: '70000' })).toThrow(/LTC_RPC_PORT/);
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

describe('the regtest node of npm start -- --chains (real litecoind)', () => {
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

  it('starts on the fixed port with the kept password, funds the demo wallet once, mines on its timer, and keeps it all across a restart', async () => {
    const port = await freePort();
    const first = await start({ LTC_RPC_PORT: String(port), CHAINS_BLOCK_INTERVAL: '1' });
    const password = readFileSync(paths.litecoinRpcPassword, 'utf8').trim();
    expect(statSync(paths.litecoinRpcPassword).mode & 0o777).toBe(0o600);
    expect(first.litecoin.rpcUrl).toBe(`http://tributary:${password}@127.0.0.1:${port}`);
    expect(first.serviceEnv).toEqual({ CRYPTO_NETWORK: CHAINS_NETWORK, CRYPTO_LTC_RPC_URL: first.litecoin.rpcUrl });
    expect(stateEnv(paths.chainsState, 'crypto', {})).toEqual({ ...first.serviceEnv, CRYPTO_PAY_WALLET: DEMO_WALLET });
    expect(first.litecoin).toMatchObject({ wallet: DEMO_WALLET, fundedNow: true, height: FUNDING_BLOCKS });
    expect(await litecoinRpc<number>(first.litecoin.rpcUrl, 'getbalance', [], { wallet: DEMO_WALLET })).toBeGreaterThan(0);
    // The table shows where and how, never the password.
    expect(chainRows(first, paths).flat().join(' ')).not.toContain(password);
    expect(chainRows(first, paths).flat().join(' ')).toContain(`127.0.0.1:${port}`);

    // The miner: a block a second.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const mined = await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount');
    expect(mined).toBeGreaterThanOrEqual(FUNDING_BLOCKS + 2);

    // Stopped: no more blocks, the state file gone; then the node stops like npm start stops it.
    first.stop();
    expect(stateEnv(paths.chainsState, 'crypto', {})).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const afterStop = await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await litecoinRpc<number>(first.litecoin.rpcUrl, 'getblockcount')).toBe(afterStop);
    await supervisor!.stopAll();

    // Restarted on the same data: same password, the wallet loaded (not created, not funded again), the chain kept.
    const second = await start({ LTC_RPC_PORT: String(port), CHAINS_BLOCK_INTERVAL: '0' });
    expect(second.litecoin.rpcUrl).toBe(first.litecoin.rpcUrl);
    expect(second.litecoin).toMatchObject({ fundedNow: false, height: afterStop });
    expect(lines.some((line) => line.includes(`Litecoin demo wallet "${DEMO_WALLET}" — loaded`))).toBe(true);
    second.stop();
  }, 120_000);
});
