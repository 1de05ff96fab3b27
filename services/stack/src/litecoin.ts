// A throwaway Litecoin Core node in regtest for `npm test` (the crypto chain tests, issue 12): Debian's `litecoind`
// (npm test installs it with apt when it runs as root and the binary is missing), its data in the run's directory,
// RPC and P2P on free loopback ports, a random RPC password, no peers. Blocks exist only when a test mines them.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { StackError } from './errors.js';
import { freePort } from './ports.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

/** Where Debian's package puts the daemon. */
export const LITECOIND = '/usr/bin/litecoind';

/** The variable a test reads the node's JSON-RPC URL from (issue 12: CRYPTO_<ASSET>_RPC_URL). */
export const LTC_RPC_URL_ENV = 'CRYPTO_LTC_RPC_URL';

export interface LitecoinRegtestOptions {
  supervisor: Supervisor;
  dataDir: string;
  name?: string;
  timeoutMs?: number;
}

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
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const user = 'tributary';
  const password = randomBytes(16).toString('hex');
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
    '-printtoconsole',
  ];
  const proc = opts.supervisor.spawn({ name: opts.name ?? 'litecoind', command: LITECOIND, args, tier: 'chain', graceMs: 15_000 });
  const rpcUrl = `http://${user}:${password}@127.0.0.1:${rpcPort}`;
  await waitForRpc(rpcUrl, proc, opts.timeoutMs ?? 60_000);
  return { rpcUrl, process: proc };
}

/** Bitcoin Core's `-rpcauth` value (share/rpcauth/rpcauth.py): user:salt$HMAC-SHA256(salt, password), hex. */
export function rpcAuth(user: string, password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${user}:${salt}$${createHmac('sha256', salt).update(password).digest('hex')}`;
}

/** Until `getblockchaininfo` answers (the node is out of its warm-up), or the process exits, or the time is up. */
async function waitForRpc(rpcUrl: string, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const url = new URL(rpcUrl);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const endpoint = `${url.protocol}//${url.host}/`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw new StackError('litecoind exited during startup', undefined, proc.logFile);
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '1.0', id: 'ready', method: 'getblockchaininfo', params: [] }),
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StackError(`litecoind did not answer JSON-RPC within ${timeoutMs / 1000} s`, undefined, proc.logFile);
}

/** The node's data directory inside a run directory. */
export const litecoinDataDir = (runDir: string): string => path.join(runDir, 'litecoind');
