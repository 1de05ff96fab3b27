// Every benchmark of `npm run bench`, once, in a smoke run (`bench --smoke`: one round of a second per side, no warmup,
// tiny seeded data), through the real runner on this test run's PostgreSQL, Temporal and chain nodes: a benchmark that
// no longer starts, seeds, loads or reports fails here instead of rotting until the next `npm run bench`. Only that
// each one finished with a result is checked; its figures mean nothing at these sizes and are never asserted.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { discoverBenchmarks } from '../src/bench-discovery.js';
import type { BenchRunReport } from '../src/bench-report.js';
import { findRepoRoot } from '../src/paths.js';

const root = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, 'services', 'stack', 'dist', 'cli.js');
/** What the smoke run may take at most on a loaded 2-core machine (it usually takes about a minute). */
const SMOKE_TIMEOUT_MS = 240_000;

interface Finished {
  code: number | null;
  output: string;
}

/** `cli.js bench --smoke` on the infrastructure `npm test` provisioned (no second PostgreSQL, Temporal or chain node). */
function runSmoke(): Promise<Finished> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  // The bench runner reuses a Temporal server given as TEST_TEMPORAL_ADDRESS; npm test hands its own as TEMPORAL_ADDRESS.
  if (process.env['TEMPORAL_ADDRESS']) env['TEST_TEMPORAL_ADDRESS'] = process.env['TEMPORAL_ADDRESS'];
  for (const setting of ['BENCH_CONNECTIONS', 'BENCH_DURATION_SECONDS', 'BENCH_WARMUP_SECONDS', 'BENCH_ROUNDS']) delete env[setting];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'bench', '--smoke'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run bench -- --smoke', () => {
  it(
    'runs every benchmark to a result',
    async () => {
      const expected = discoverBenchmarks(root).map((entry) => entry.name);
      expect(expected.length).toBeGreaterThan(0);
      const { code, output } = await runSmoke();
      const resultsLine = /^results: (.+)$/m.exec(output);
      if (!resultsLine) throw new Error(`the smoke run wrote no results file (exit ${code}):\n${output.slice(-6_000)}`);
      const report = JSON.parse(readFileSync(path.join(root, resultsLine[1]!.trim()), 'utf8')) as BenchRunReport;
      const statuses = Object.fromEntries(report.benchmarks.map((outcome) => [outcome.name, outcome.status]));
      // Every benchmark, none FAILED (did not run to a result) or INVALID (a side got errors): the output says why.
      const broken = report.benchmarks.filter((outcome) => outcome.status === 'failed' || outcome.status === 'invalid');
      if (broken.length > 0) throw new Error(`${broken.map((o) => `${o.name}: ${o.status}`).join(', ')}\n${output.slice(-8_000)}`);
      expect(Object.keys(statuses).sort()).toEqual([...expected].sort());
      expect(report.benchmarks.every((outcome) => outcome.result?.settings.smoke === true)).toBe(true);
      expect(code).toBe(0);
    },
    SMOKE_TIMEOUT_MS,
  );
});
