// Which benchmarks exist: every workspace's compiled `dist/bench/<name>.bench.js` (source `src/bench/<name>.bench.ts`),
// so a service adds a benchmark by adding a file, and the runner needs no list.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';

export interface BenchmarkEntry {
  /** File name without `.bench.js`; what `npm run bench -- NAME` selects. */
  name: string;
  /** Workspace folder relative to the repository root, e.g. services/bnpl. */
  workspace: string;
  /** Absolute path of the compiled benchmark. */
  file: string;
}

export const BENCH_FILE_SUFFIX = '.bench.js';

function workspacesOf(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return pkg.workspaces ?? [];
}

/** Every compiled benchmark, ordered by workspace then name; two with one name are refused (NAME must be unique). */
export function discoverBenchmarks(root: string): BenchmarkEntry[] {
  const found: BenchmarkEntry[] = [];
  for (const workspace of workspacesOf(root)) {
    const dir = path.join(root, workspace, 'dist', 'bench');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(BENCH_FILE_SUFFIX)).sort()) {
      found.push({ name: file.slice(0, -BENCH_FILE_SUFFIX.length), workspace, file: path.join(dir, file) });
    }
  }
  const seen = new Map<string, string>();
  for (const entry of found) {
    const other = seen.get(entry.name);
    if (other) throw new StackError(`two benchmarks are named ${entry.name} (${other} and ${entry.workspace})`, 'rename one of the files: NAME selects a benchmark on the command line');
    seen.set(entry.name, entry.workspace);
  }
  return found;
}

/**
 * Benchmarks that read chain nodes (crypto's chain watchers, `chain-scan-*`): the runner starts the nodes as `npm test`
 * does. crypto's HTTP benchmarks need none, so they are not kept waiting for litecoind and anvil.
 */
export const CHAIN_NODE_BENCHMARKS: ReadonlyArray<{ workspace: string; namePrefix: string }> = [{ workspace: 'services/crypto', namePrefix: 'chain-scan-' }];

/** Whether the runner must start the chain nodes (CRYPTO_LTC_RPC_URL, CRYPTO_ETH_RPC_URL, CRYPTO_MATIC_RPC_URL) for `entry`. */
export function needsChainNodes(entry: BenchmarkEntry): boolean {
  return CHAIN_NODE_BENCHMARKS.some(({ workspace, namePrefix }) => entry.workspace === workspace && entry.name.startsWith(namePrefix));
}

/**
 * The benchmarks `names` select: a benchmark's name, or a workspace's folder name (`bnpl` = all of services/bnpl);
 * no names = all. An unknown name is an error listing what exists.
 */
export function selectBenchmarks(all: readonly BenchmarkEntry[], names: readonly string[]): BenchmarkEntry[] {
  if (names.length === 0) return [...all];
  const unknown = names.filter((name) => !all.some((entry) => entry.name === name || path.basename(entry.workspace) === name));
  if (unknown.length > 0) {
    const available = all.map((entry) => entry.name).join(', ') || '(none)';
    throw new StackError(`no benchmark named ${unknown.join(', ')}`, `available: ${available}`);
  }
  return all.filter((entry) => names.some((name) => entry.name === name || path.basename(entry.workspace) === name));
}
