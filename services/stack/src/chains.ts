// `npm start -- --chains` (or TRIBUTARY_CHAINS=1), issue 12 §6: real local chains for the crypto service. A Litecoin
// Core regtest node kept in .stack/litecoind (a fixed loopback RPC port, LTC_RPC_PORT; its password generated once into
// .stack/secrets), a demo wallet funded on first start, and an anvil node for ethereum (chain id 31337, the regtest id
// crypto expects; a fixed loopback port, ETH_RPC_PORT; its chain kept in .stack/anvil/state.json) whose first dev
// account pays. Miners add a block every CHAINS_BLOCK_INTERVAL seconds to litecoin and every CHAINS_EVM_BLOCK_INTERVAL
// to anvil so confirmations advance, and crypto runs in CRYPTO_NETWORK=regtest with CRYPTO_LTC_RPC_URL and
// CRYPTO_ETH_RPC_URL. While it runs, .stack/chains.json tells the admin dispatcher (bin/admin.mjs, through
// bin/stack-state.mjs) what to pass to crypto's commands, so `admin crypto pay` in another terminal sends real
// transactions (LTC from the demo wallet, ETH from anvil's first dev account).
import { existsSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { StackEnv } from './config.js';
import { StackError } from './errors.js';
import { ANVIL_CHAIN_IDS, ETH_RPC_URL_ENV, anvilRpc, startAnvil } from './anvil.js';
import { LITECOIN_RPC_USER, LTC_RPC_URL_ENV, litecoinRpc, randomRpcPassword, startLitecoinRegtest } from './litecoin.js';
import type { StackPaths } from './paths.js';
import type { PortClaim } from './ports.js';
import type { Progress } from './progress.js';
import { ensureSecretFile } from './secrets.js';
import type { ServiceName } from './services.js';
import type { Supervisor } from './supervisor.js';

/** The node wallet `admin crypto pay` sends from and the miner pays its blocks to. */
export const DEMO_WALLET = 'tributary-demo';

/** The chain network crypto runs on with --chains. */
export const CHAINS_NETWORK = 'regtest';

/** Blocks mined into the demo wallet on first start: a coinbase output is spendable after 100 more blocks. */
export const FUNDING_BLOCKS = 101;

/** What crypto's admin reads the wallet `pay` sends from (services/crypto/src/admin/run.ts). */
export const PAY_WALLET_ENV = 'CRYPTO_PAY_WALLET';

/**
 * Seconds between anvil's state dumps while it runs (it also writes the state when it stops): a start killed hard
 * (SIGKILL, power off) loses at most this much of the ethereum chain, which the watcher then sees as a reorg.
 */
export const ANVIL_STATE_INTERVAL_SECONDS = 30;

/** The supervisor's name for the node (its log: .stack/logs/anvil-ethereum.log). */
export const ANVIL_PROCESS_NAME = 'anvil-ethereum';

/**
 * Seconds between anvil's blocks: CHAINS_EVM_BLOCK_INTERVAL, or half of CHAINS_BLOCK_INTERVAL rounded up. ETH counts a
 * payment at 12 confirmations, LTC at 6, so at half the interval both count in the same time (a minute by default);
 * CHAINS_BLOCK_INTERVAL=0 turns off both miners unless CHAINS_EVM_BLOCK_INTERVAL is set.
 */
export function evmBlockInterval(env: Pick<StackEnv, 'CHAINS_BLOCK_INTERVAL' | 'CHAINS_EVM_BLOCK_INTERVAL'>): number {
  return env.CHAINS_EVM_BLOCK_INTERVAL ?? Math.ceil(env.CHAINS_BLOCK_INTERVAL / 2);
}

/** Whether this start runs the chains: the flag, or TRIBUTARY_CHAINS. */
export function chainsRequested(flag: boolean, env: Pick<StackEnv, 'TRIBUTARY_CHAINS'>): boolean {
  return flag || env.TRIBUTARY_CHAINS;
}

/** Refuses a start the chains cannot serve: crypto not running (unless --infra-only), or crypto told another network. */
export function assertChainsPlan(services: readonly ServiceName[], infraOnly: boolean, processEnv: NodeJS.ProcessEnv = process.env): void {
  if (!infraOnly && !services.includes('crypto')) {
    throw new StackError('--chains runs local chains for the crypto service, which this start does not run', 'add crypto to --only, or drop --chains (TRIBUTARY_CHAINS)');
  }
  const network = processEnv['CRYPTO_NETWORK']?.trim();
  if (network && network !== CHAINS_NETWORK) {
    throw new StackError(`--chains runs crypto on ${CHAINS_NETWORK}, but CRYPTO_NETWORK=${network}`, 'unset CRYPTO_NETWORK (or drop --chains)');
  }
}

export function chainsPortClaims(env: StackEnv): PortClaim[] {
  return [
    { variable: 'LTC_RPC_PORT', port: env.LTC_RPC_PORT, purpose: 'Litecoin regtest JSON-RPC' },
    { variable: 'ETH_RPC_PORT', port: env.ETH_RPC_PORT, purpose: 'anvil (ethereum regtest) JSON-RPC' },
  ];
}

/** What .stack/chains.json holds: the running start's pid, and per service the variables its admin commands get. */
export interface ChainsState {
  pid: number;
  services: Partial<Record<ServiceName, Record<string, string>>>;
}

/** Written whole (temporary file, then rename) and readable by its owner only: it holds the node's RPC password. */
export function writeChainsState(file: string, state: ChainsState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function removeChainsState(file: string): void {
  rmSync(file, { force: true });
}

export interface RunningChains {
  litecoin: { rpcUrl: string; rpcPort: number; wallet: string; height: number; fundedNow: boolean; blockIntervalSeconds: number };
  /** The anvil node: `stateLoaded` when its chain came from .stack/anvil/state.json; `account` pays (`admin crypto pay`). */
  ethereum: { rpcUrl: string; rpcPort: number; chainId: number; account: string; height: number; stateLoaded: boolean; blockIntervalSeconds: number };
  /** For crypto's migrate, seed, serve and worker. */
  serviceEnv: Record<string, string>;
  /** For crypto's admin commands (the dispatcher), through .stack/chains.json. */
  adminEnv: Record<string, string>;
  /** Stops the miners and removes .stack/chains.json; the nodes stop with the supervisor's chain tier (anvil writing its state). */
  stop(): void;
}

/** The litecoin node and its demo wallet, the anvil node, the miners and the state file, in that order. */
export async function startChains(opts: { env: StackEnv; paths: StackPaths; supervisor: Supervisor; progress: Progress }): Promise<RunningChains> {
  const { env, paths, supervisor, progress } = opts;
  const rpcPassword = ensureSecretFile(paths.litecoinRpcPassword, randomRpcPassword);
  const node = await progress.step(`Litecoin Core regtest: RPC 127.0.0.1:${env.LTC_RPC_PORT}, data in ${path.relative(paths.root, paths.litecoind)}/`, () =>
    startLitecoinRegtest({ supervisor, dataDir: paths.litecoind, rpcPort: env.LTC_RPC_PORT, rpcPassword, name: 'litecoind' }),
  );
  const wallet = await progress.step(`Litecoin demo wallet "${DEMO_WALLET}"`, () => ensureDemoWallet(node.rpcUrl, DEMO_WALLET), (w) =>
    `${w.opened}${w.fundedNow ? `, funded: ${FUNDING_BLOCKS} blocks mined to it` : ''}; chain height ${w.height}`,
  );
  const ethereum = await progress.step(
    `anvil (ethereum regtest, chain id ${ANVIL_CHAIN_IDS.ethereum}): RPC 127.0.0.1:${env.ETH_RPC_PORT}, state in ${path.relative(paths.root, paths.anvilState)}`,
    () => startEthereumNode(env, paths, supervisor),
    (n) => `${n.stateLoaded ? 'chain loaded' : 'new chain'}, height ${n.height}; pays from ${n.account}`,
  );
  const warn = (message: string): void => progress.info(message);
  const miners = [
    startMiner({ name: 'litecoind', intervalSeconds: env.CHAINS_BLOCK_INTERVAL, warn, mine: () => litecoinRpc(node.rpcUrl, 'generatetoaddress', [1, wallet.address]) }),
    startMiner({ name: ANVIL_PROCESS_NAME, intervalSeconds: ethereum.blockIntervalSeconds, warn, mine: () => anvilRpc(ethereum.rpcUrl, 'evm_mine') }),
  ];
  const serviceEnv = { CRYPTO_NETWORK: CHAINS_NETWORK, [LTC_RPC_URL_ENV]: node.rpcUrl, [ETH_RPC_URL_ENV]: ethereum.rpcUrl };
  const adminEnv = { ...serviceEnv, [PAY_WALLET_ENV]: DEMO_WALLET };
  writeChainsState(paths.chainsState, { pid: process.pid, services: { crypto: adminEnv } });
  return {
    litecoin: { rpcUrl: node.rpcUrl, rpcPort: env.LTC_RPC_PORT, wallet: DEMO_WALLET, height: wallet.height, fundedNow: wallet.fundedNow, blockIntervalSeconds: env.CHAINS_BLOCK_INTERVAL },
    ethereum,
    serviceEnv,
    adminEnv,
    stop: () => {
      for (const miner of miners) miner.stop();
      removeChainsState(paths.chainsState);
    },
  };
}

/**
 * anvil on the fixed port with its chain in .stack/anvil/state.json (`--state`: loaded when it exists, written when
 * the supervisor stops it and every ANVIL_STATE_INTERVAL_SECONDS), and what `pay` sends from: the first dev account.
 */
async function startEthereumNode(env: StackEnv, paths: StackPaths, supervisor: Supervisor): Promise<RunningChains['ethereum']> {
  const stateLoaded = existsSync(paths.anvilState);
  const chainId = ANVIL_CHAIN_IDS.ethereum;
  const anvil = await startAnvil({
    supervisor,
    chainId,
    name: ANVIL_PROCESS_NAME,
    port: env.ETH_RPC_PORT,
    dataDir: paths.anvil,
    stateFile: paths.anvilState,
    stateIntervalSeconds: ANVIL_STATE_INTERVAL_SECONDS,
  });
  const [account] = await anvilRpc<string[]>(anvil.rpcUrl, 'eth_accounts');
  if (!account) throw new StackError(`${ANVIL_PROCESS_NAME} has no dev account`, undefined, anvil.process.logFile);
  const height = Number(await anvilRpc<string>(anvil.rpcUrl, 'eth_blockNumber'));
  return { rpcUrl: anvil.rpcUrl, rpcPort: env.ETH_RPC_PORT, chainId, account, height, stateLoaded, blockIntervalSeconds: evmBlockInterval(env) };
}

export interface DemoWallet {
  opened: 'created' | 'loaded' | 'already loaded';
  /** A fresh address of the wallet: the miner's blocks pay it. */
  address: string;
  fundedNow: boolean;
  height: number;
}

/** The wallet loaded (created on first start, loaded from the data directory later) and holding spendable coins. */
export async function ensureDemoWallet(rpcUrl: string, wallet: string): Promise<DemoWallet> {
  let opened: DemoWallet['opened'] = 'already loaded';
  if (!(await litecoinRpc<string[]>(rpcUrl, 'listwallets')).includes(wallet)) {
    const onDisk = (await litecoinRpc<{ wallets: Array<{ name: string }> }>(rpcUrl, 'listwalletdir')).wallets.map((w) => w.name);
    if (onDisk.includes(wallet)) {
      await litecoinRpc(rpcUrl, 'loadwallet', [wallet]);
      opened = 'loaded';
    } else {
      await litecoinRpc(rpcUrl, 'createwallet', [wallet]);
      opened = 'created';
    }
  }
  const address = await litecoinRpc<string>(rpcUrl, 'getnewaddress', ['', 'bech32'], { wallet });
  // Zero spendable coins (a new chain, or everything spent): mine until a coinbase output matures. A zero balance is
  // exactly 0 in JSON, so comparing the number is safe.
  const balance = await litecoinRpc<number>(rpcUrl, 'getbalance', [], { wallet });
  const fundedNow = balance === 0;
  if (fundedNow) await litecoinRpc(rpcUrl, 'generatetoaddress', [FUNDING_BLOCKS, address], { timeoutMs: 120_000 });
  return { opened, address, fundedNow, height: await litecoinRpc<number>(rpcUrl, 'getblockcount') };
}

export interface Miner {
  stop(): void;
}

/**
 * `mine` (one block) every `intervalSeconds` (0: never), for the node called `name`. A tick that finds the previous one
 * still running is skipped; a failure is reported once until a block is mined again (the node stopping under it during
 * shutdown is not reported: stop() comes first).
 */
export function startMiner(opts: { name: string; mine: () => Promise<unknown>; intervalSeconds: number; warn: (message: string) => void }): Miner {
  if (opts.intervalSeconds === 0) return { stop: () => undefined };
  let busy = false;
  let failing = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    opts
      .mine()
      .then(() => {
        if (failing && !stopped) opts.warn(`${opts.name}: mining again`);
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing && !stopped) opts.warn(`${opts.name}: could not mine a block (${error instanceof Error ? error.message : String(error)}); retrying every ${opts.intervalSeconds} s`);
        failing = true;
      })
      .finally(() => {
        busy = false;
      });
  }, opts.intervalSeconds * 1000);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The URL table's rows (npm start) for the chains. The password stays in its file. */
export function chainRows(chains: RunningChains, paths: StackPaths): string[][] {
  const { litecoin, ethereum } = chains;
  return [
    ['litecoin', 'regtest JSON-RPC', `http://127.0.0.1:${litecoin.rpcPort} (user ${LITECOIN_RPC_USER}, password in ${path.relative(paths.root, paths.litecoinRpcPassword)})`],
    ['', 'demo wallet', `${litecoin.wallet} (admin crypto pay sends from it; mined blocks pay it)`],
    ['', 'mining', litecoin.blockIntervalSeconds === 0 ? 'off (CHAINS_BLOCK_INTERVAL=0): generatetoaddress by hand' : `1 block every ${litecoin.blockIntervalSeconds} s (CHAINS_BLOCK_INTERVAL); height ${litecoin.height} at start`],
    ['anvil', 'ethereum regtest JSON-RPC', `http://127.0.0.1:${ethereum.rpcPort} (chain id ${ethereum.chainId}; chain in ${path.relative(paths.root, paths.anvilState)})`],
    ['', 'pay account', `${ethereum.account} (anvil's first dev account: admin crypto pay sends ETH from it)`],
    ['', 'mining', ethereum.blockIntervalSeconds === 0 ? 'off (CHAINS_EVM_BLOCK_INTERVAL, or CHAINS_BLOCK_INTERVAL, 0): evm_mine by hand' : `1 block every ${ethereum.blockIntervalSeconds} s (CHAINS_EVM_BLOCK_INTERVAL); height ${ethereum.height} at start`],
    // Both nodes' line, in a group of its own.
    ['chains', 'crypto gets', `CRYPTO_NETWORK=${CHAINS_NETWORK}, ${LTC_RPC_URL_ENV}, ${ETH_RPC_URL_ENV} (serve, worker, admin)`],
  ];
}
