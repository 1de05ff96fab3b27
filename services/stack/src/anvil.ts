// EVM nodes: Foundry's anvil from the npm package
// @foundry-rs/anvil, whose binary ships in a per-platform package (@foundry-rs/anvil-linux-amd64, …) that the lockfile
// lists for every platform. It is spawned directly, not through the wrapper's `bin.mjs` (one process for the
// supervisor to signal). Loopback only, the default dev accounts (public mnemonic "test test … junk", 10,000 ETH each:
// worthless outside this node). `--no-mining`: like the litecoind regtest node, a block exists only when someone mines
// one (`anvil_mine` / `evm_mine`); a sent transaction waits in the pool until then.
//   npm test:                 throwaway (the crypto EVM watcher tests, issue 12 §3): a free port, state in memory; a
//                             test decides which transactions share a block and how many confirmations a payment has.
//   npm start -- --chains:    kept (issue 12 §6): a fixed port (ETH_RPC_PORT) and `--state .stack/anvil/state.json`,
//                             loaded at start and written on exit and on an interval; a miner on a timer (chains.ts).
import { constants } from 'node:fs';
import { access, chmod, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { freeLoopbackPort } from '@tributary/kit';
import { StackError } from './errors.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

/** The variables a test reads the nodes' JSON-RPC URLs from (issue 12: CRYPTO_<ASSET>_RPC_URL). */
export const ETH_RPC_URL_ENV = 'CRYPTO_ETH_RPC_URL';
export const MATIC_RPC_URL_ENV = 'CRYPTO_MATIC_RPC_URL';

/**
 * The EIP-155 chain ids of the two local nodes: the gateway's regtest ids (crypto's EVM_CHAIN_IDS.regtest, which the
 * crypto EVM watcher test holds these nodes to): anvil's default 31337 for ethereum, 31338 for the polygon node.
 */
export const ANVIL_CHAIN_IDS = { ethereum: 31337, polygon: 31338 } as const;

/** Foundry's names for the platform packages (const.mjs of @foundry-rs/anvil). */
const PLATFORM_PACKAGES: Partial<Record<NodeJS.Platform, Partial<Record<string, string>>>> = {
  linux: { x64: 'linux-amd64', arm64: 'linux-arm64' },
  darwin: { x64: 'darwin-amd64', arm64: 'darwin-arm64' },
  win32: { x64: 'win32-amd64' },
};

export interface AnvilOptions {
  supervisor: Supervisor;
  chainId: number;
  name: string;
  /** Where anvil may persist old states (`--cache-path`); without it, its default under ~/.foundry. */
  dataDir?: string;
  /** Default: a free port. */
  port?: number;
  /**
   * `--state <file>`: the chain (blocks, receipts, balances, nonces) is loaded from it at start when it exists and
   * written to it when anvil stops (SIGTERM included) and every `stateIntervalSeconds` (`--state-interval`). Without
   * it the chain lives in memory only.
   */
  stateFile?: string;
  stateIntervalSeconds?: number;
  timeoutMs?: number;
}

export interface Anvil {
  /** `http://127.0.0.1:<port>`: Ethereum JSON-RPC (no credentials: loopback only). */
  rpcUrl: string;
  process: ManagedProcess;
}

/**
 * The anvil binary of this platform's package. npm (strict-allow-scripts, no install scripts run) may unpack it
 * without its execute bit; it is set here then.
 */
export async function anvilBinary(): Promise<string> {
  const suffix = PLATFORM_PACKAGES[process.platform]?.[process.arch];
  if (!suffix) throw new StackError(`anvil has no binary for ${process.platform}/${process.arch}`);
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  let binary: string;
  try {
    binary = createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${suffix}/bin/${name}`);
  } catch {
    throw new StackError(`@foundry-rs/anvil-${suffix} is not installed`, 'npm install (package-lock.json lists it as an optional dependency of @foundry-rs/anvil)');
  }
  if (process.platform !== 'win32') {
    try {
      await access(binary, constants.X_OK);
    } catch {
      await chmod(binary, 0o755);
    }
  }
  return binary;
}

export async function startAnvil(opts: AnvilOptions): Promise<Anvil> {
  const command = await anvilBinary();
  const port = opts.port ?? (await freeLoopbackPort());
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(opts.chainId), '--no-mining'];
  if (opts.dataDir) {
    await mkdir(opts.dataDir, { recursive: true });
    args.push('--cache-path', opts.dataDir);
  }
  if (opts.stateFile) {
    await mkdir(path.dirname(opts.stateFile), { recursive: true });
    args.push('--state', opts.stateFile);
    if (opts.stateIntervalSeconds) args.push('--state-interval', String(opts.stateIntervalSeconds));
  }
  const proc = opts.supervisor.spawn({ name: opts.name, command, args, tier: 'chain', graceMs: 5_000 });
  const rpcUrl = `http://127.0.0.1:${port}`;
  await waitForChainId(rpcUrl, opts.chainId, proc, opts.timeoutMs ?? 30_000);
  return { rpcUrl, process: proc };
}

/** Until `eth_chainId` answers the expected id, or the process exits, or the time is up. */
async function waitForChainId(rpcUrl: string, chainId: number, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw new StackError(`${proc.name} exited during startup`, undefined, proc.logFile);
    let answered: string | undefined;
    try {
      answered = await anvilRpc<string>(rpcUrl, 'eth_chainId', [], 2_000);
    } catch {
      // not listening yet
    }
    if (answered !== undefined) {
      if (Number(answered) === chainId) return;
      throw new StackError(`${proc.name} runs chain id ${Number(answered)}, not ${chainId}`, undefined, proc.logFile);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new StackError(`${proc.name} did not answer JSON-RPC within ${timeoutMs / 1000} s`, undefined, proc.logFile);
}

/**
 * One JSON-RPC call to an anvil node the runner started (readiness, the miner, the dev account): the runner's own few
 * calls, so it does not depend on the crypto package's EvmRpcClient. Throws on an answered error too.
 */
export async function anvilRpc<T>(rpcUrl: string, method: string, params: unknown[] = [], timeoutMs = 10_000): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { message?: string } };
  if (body.error !== undefined || body.result === undefined) throw new Error(`anvil ${method}: ${body.error?.message ?? `HTTP ${res.status}, no result`}`);
  return body.result;
}

/** A node's state directory inside a run directory. */
export const anvilDataDir = (runDir: string, name: string): string => path.join(runDir, name);
