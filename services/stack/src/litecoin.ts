// A Litecoin Core node in regtest (issue 12): Debian's `litecoind` (npm test installs it with apt when it runs as root
// and the binary is missing), no peers, RPC on loopback only.
//   npm test:                 throwaway: data in the run's directory, free ports, a random RPC password; blocks exist
//                             only when a test mines them.
//   npm start -- --chains:    kept: data in .stack/litecoind, a fixed RPC port, the password kept in .stack/secrets; a
//                             demo wallet funded on first start and a miner on a timer (chains.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { freeLoopbackPort } from '@tributary/kit';
import { StackError } from './errors.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

/** Where Debian's package puts the daemon. */
export const LITECOIND = '/usr/bin/litecoind';

/** 2100-01-01 (Unix seconds): a version-bits start time that never comes. */
const MWEB_NEVER = 4_102_444_800;

/** The variable a test reads the node's JSON-RPC URL from (issue 12: CRYPTO_<ASSET>_RPC_URL). */
export const LTC_RPC_URL_ENV = 'CRYPTO_LTC_RPC_URL';

export interface LitecoinRegtestOptions {
  supervisor: Supervisor;
  dataDir: string;
  name?: string;
  timeoutMs?: number;
  /** Default: a free port. */
  rpcPort?: number;
  /** The RPC password (kept by the caller for a persistent node); default: a random one for this run. */
  rpcPassword?: string;
}

/** The RPC user of every node the runner starts. */
export const LITECOIN_RPC_USER = 'tributary';

export interface LitecoinRegtest {
  /** `http://<user>:<password>@127.0.0.1:<port>`: Bitcoin Core JSON-RPC, as litecoind speaks it. */
  rpcUrl: string;
  process: ManagedProcess;
}

export function litecoindInstalled(): boolean {
  return existsSync(LITECOIND);
}

export async function startLitecoinRegtest(opts: LitecoinRegtestOptions): Promise<LitecoinRegtest> {
  if (!litecoindInstalled()) throw new StackError(`${LITECOIND} is missing`, 'apt-get install -y litecoind (npm test does it when it runs as root)');
  await mkdir(opts.dataDir, { recursive: true });
  // No P2P listener (-listen=0): the port only has to be one litecoind would not fight over.
  const [rpcPort, p2pPort] = [opts.rpcPort ?? (await freeLoopbackPort()), await freeLoopbackPort()];
  const user = LITECOIN_RPC_USER;
  const password = opts.rpcPassword ?? randomRpcPassword();
  const args = [
    '-regtest',
    `-datadir=${opts.dataDir}`,
    `-rpcport=${rpcPort}`,
    `-port=${p2pPort}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    '-listen=0',
    '-dnsseed=0',
    // The salted HMAC of the password, not the password, on the command line (process lists, the supervisor's log).
    `-rpcauth=${rpcAuth(user, password)}`,
    // A wallet that sends in tests needs a fee rate without fee estimates (a fresh chain has none).
    '-fallbackfee=0.0001',
    // MWEB (Litecoin 0.21.2's extension blocks) locks in on regtest by block 432, and from then on Core cannot mine a
    // block with ordinary wallet transactions ("bad-txns-vin-empty"): a start date far in the future keeps it inactive.
    `-vbparams=mweb:${MWEB_NEVER}:${MWEB_NEVER}`,
    '-printtoconsole',
  ];
  const proc = opts.supervisor.spawn({ name: opts.name ?? 'litecoind', command: LITECOIND, args, tier: 'chain', graceMs: 15_000 });
  const rpcUrl = `http://${user}:${password}@127.0.0.1:${rpcPort}`;
  await waitForRpc(rpcUrl, proc, opts.timeoutMs ?? 60_000);
  return { rpcUrl, process: proc };
}

export function randomRpcPassword(): string {
  return randomBytes(16).toString('hex');
}

/** Bitcoin Core's `-rpcauth` value (share/rpcauth/rpcauth.py): user:salt$HMAC-SHA256(salt, password), hex. */
export function rpcAuth(user: string, password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${user}:${salt}$${createHmac('sha256', salt).update(password).digest('hex')}`;
}

/** Until `getblockchaininfo` answers (the node is out of its warm-up), or the process exits, or the time is up. */
async function waitForRpc(rpcUrl: string, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw new StackError('litecoind exited during startup', undefined, proc.logFile);
    try {
      await litecoinRpc(rpcUrl, 'getblockchaininfo', [], { timeoutMs: 2_000 });
      return;
    } catch {
      // not listening yet, or still warming up (RPC error -28)
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StackError(`litecoind did not answer JSON-RPC within ${timeoutMs / 1000} s`, undefined, proc.logFile);
}

/**
 * One Bitcoin Core JSON-RPC call from the runner (its own few calls: readiness, the demo wallet, the miner). The
 * services talk to nodes through crypto's UtxoRpcClient; the runner does not depend on the crypto package.
 */
export async function litecoinRpc<T>(rpcUrl: string, method: string, params: unknown[] = [], options: { wallet?: string; timeoutMs?: number } = {}): Promise<T> {
  const url = new URL(rpcUrl);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const endpoint = `${url.protocol}//${url.host}${options.wallet === undefined ? '/' : `/wallet/${encodeURIComponent(options.wallet)}`}`;
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '1.0', id: method, method, params }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: { result?: T; error?: { code: number; message: string } | null } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  if (body?.error) throw new StackError(`litecoind ${method}: ${body.error.message} (RPC error ${body.error.code})`);
  if (!res.ok || !body) throw new StackError(`litecoind ${method}: HTTP ${res.status} from ${url.host}`);
  return body.result as T;
}

/** The node's data directory inside a run directory. */
export const litecoinDataDir = (runDir: string): string => path.join(runDir, 'litecoind');
