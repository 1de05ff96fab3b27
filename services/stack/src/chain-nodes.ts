// The throwaway chain nodes `npm test` and `npm run bench` give crypto (issue 12): a Litecoin Core regtest node and
// two anvil nodes on free ports, data in the run's directory, stopped with the run. (`npm start -- --chains` keeps
// its own node: chains.ts.)
import { ANVIL_CHAIN_IDS, anvilDataDir, ETH_RPC_URL_ENV, MATIC_RPC_URL_ENV, startAnvil } from './anvil.js';
import { LITECOIND, LTC_RPC_URL_ENV, litecoinDataDir, litecoindInstalled, startLitecoinRegtest } from './litecoin.js';
import type { Progress } from './progress.js';
import type { Supervisor } from './supervisor.js';

export interface ChainNodesOptions {
  supervisor: Supervisor;
  progress: Progress;
  runDir: string;
  /** Names the processes (`<prefix>-litecoind`, `<prefix>-anvil-<chain>`) in the supervisor's logs. */
  processPrefix: string;
}

/**
 * A Litecoin Core regtest node, its RPC URL in CRYPTO_LTC_RPC_URL, and two anvil nodes (ethereum and one with
 * Polygon's regtest chain id) in CRYPTO_ETH_RPC_URL and CRYPTO_MATIC_RPC_URL. Without litecoind (not root, no apt) the
 * run goes on and what needs it fails naming the fix. A URL already set in the environment is used as it is.
 */
export async function provisionChainNodes({ supervisor, progress, runDir, processPrefix }: ChainNodesOptions): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {};
  const evmNodes = [
    { variable: ETH_RPC_URL_ENV, chain: 'ethereum' },
    { variable: MATIC_RPC_URL_ENV, chain: 'polygon' },
  ] as const;
  for (const { variable, chain } of evmNodes) {
    if (process.env[variable]) continue;
    const [name, chainId] = [`${processPrefix}-anvil-${chain}`, ANVIL_CHAIN_IDS[chain]];
    const anvil = await progress.step(`anvil: ${chain} node (chain id ${chainId})`, () => startAnvil({ supervisor, chainId, name, dataDir: anvilDataDir(runDir, name) }));
    env[variable] = anvil.rpcUrl;
  }
  if (process.env[LTC_RPC_URL_ENV]) return env;
  if (!litecoindInstalled()) {
    progress.info(`${LITECOIND} is missing: what needs the Litecoin regtest node fails until \`apt-get install -y litecoind\` has run`);
    return env;
  }
  const node = await progress.step('Litecoin Core: regtest node', () => startLitecoinRegtest({ supervisor, dataDir: litecoinDataDir(runDir), name: `${processPrefix}-litecoind` }));
  return { ...env, [LTC_RPC_URL_ENV]: node.rpcUrl };
}
