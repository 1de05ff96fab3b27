// `npm run bench`'s own logic: which benchmarks a command line selects, the table, the findings under it, the exit
// code, the results file's name and shape. Fixed inputs; nothing is timed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { benchmarkResult, compare, DEFAULT_BENCH_SETTINGS, type Measurement } from '@tributary/kit/bench';
import { discoverBenchmarks, needsChainNodes, selectBenchmarks } from '../src/bench-discovery.js';
import { benchExitCode, benchFindings, benchTable, BENCH_TABLE_HEADER, machineInfo, resultsFileName, statusOf, summaryOf, type BenchOutcome } from '../src/bench-report.js';
import { parseBenchArgs } from '../src/bench-runner.js';

function measurement(label: string, throughput: number, p50: number, p95: number, p99: number, runs: number[]): Measurement {
  return {
    label,
    throughput,
    unit: 'req/s',
    latencyMs: { p50, p95, p99, mean: p50, max: p99 },
    operations: throughput * 20,
    seconds: 20,
    runs,
    failures: { non2xx: 0, statusCodes: {}, errors: 0, timeouts: 0 },
  };
}

function result(name: string, ours: Measurement, baseline: Measurement) {
  return benchmarkResult({
    name,
    description: 'd',
    settings: DEFAULT_BENCH_SETTINGS,
    measured: { ours, baseline, comparison: compare(ours, baseline) },
    target: { minThroughputRatio: 0.5, maxP99Ratio: 3 },
  });
}

const base = measurement('baseline', 2000, 4.1, 8.25, 12, [1900, 2100]);
const passing = result('fast-create', { ...measurement('ours', 1200, 7.5, 15, 24.04, [1140, 1260]), cpuMsPerOperation: 0.5 }, { ...base, cpuMsPerOperation: 0.25 });
const missing = result('slow-create', measurement('ours', 600, 15, 30, 150, [570, 630]), base);
const invalid = result('broken-create', { ...measurement('ours', 900, 9, 18, 27, [900]), failures: { non2xx: 4, statusCodes: { '429': 4 }, errors: 0, timeouts: 0 } }, base);

const outcome = (r: typeof passing): BenchOutcome => ({ name: r.name, workspace: 'services/bnpl', seconds: 40, status: statusOf(r), result: r });
const outcomes: BenchOutcome[] = [
  outcome(passing),
  outcome(missing),
  outcome(invalid),
  { name: 'crashed', workspace: 'services/crypto', seconds: 2, status: 'failed', error: 'the benchmark process ended without a result (exit code 1)' },
];

describe('statuses, table and findings', () => {
  it('gives each outcome its status', () => {
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'missed', 'invalid', 'failed']);
  });

  it('prints one aligned row per benchmark: throughputs, ratio with its round range, percentiles, target, result', () => {
    const lines = benchTable(outcomes).split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(BENCH_TABLE_HEADER);
    expect(lines[2]!.split(/\s{2,}/)).toEqual(['fast-create', '1200', '2000', '0.60× (0.60–0.60)', '7.5/15.0/24.0', '4.1/8.3/12.0', '2.00×', '0.50/0.25', '—', '≥0.50× thr, p99 ≤3.00×', 'PASS']);
    expect(lines[3]!.split(/\s{2,}/)).toEqual(['slow-create', '600', '2000', '0.30× (0.30–0.30)', '15.0/30.0/150', '4.1/8.3/12.0', '12.50×', '—', '—', '≥0.50× thr, p99 ≤3.00×', 'MISS']);
    expect(lines[4]!.endsWith('INVALID')).toBe(true);
    expect(lines[4]).toContain('0.45×');
    expect(lines[5]!.split(/\s{2,}/)).toEqual(['crashed', '—', '—', '—', '—', '—', '—', '—', '—', '—', 'FAILED']);
    const resultColumn = lines[0]!.indexOf('result');
    expect(lines.slice(2).every((line) => /[A-Z]+$/.test(line) && line.lastIndexOf(' ') === resultColumn - 1)).toBe(true);
  });

  it('explains every miss, invalid result and failure under the table', () => {
    expect(benchFindings(outcomes)).toEqual([
      "slow-create MISS: throughput 0.30× the baseline's, below the 0.50× target",
      "slow-create MISS: p99 12.50× the baseline's, above the 3.00× limit",
      'broken-create INVALID: ours: 4 non-2xx responses (4× 429)',
      'crashed FAILED: the benchmark process ended without a result (exit code 1)',
    ]);
    expect(summaryOf(outcomes)).toBe('1 passed, 1 missed, 1 invalid, 1 failed');
  });
});

describe('exit code', () => {
  it('fails on a benchmark that did not run or whose figures are invalid', () => {
    expect(benchExitCode([outcomes[0]!, outcomes[3]!], false)).toBe(1);
    expect(benchExitCode([outcomes[0]!, outcomes[2]!], false)).toBe(1);
  });

  it('reports a missed target without failing, unless --strict', () => {
    expect(benchExitCode([outcomes[0]!, outcomes[1]!], false)).toBe(0);
    expect(benchExitCode([outcomes[0]!, outcomes[1]!], true)).toBe(1);
    expect(benchExitCode([outcomes[0]!], true)).toBe(0);
  });
});

describe('the results file', () => {
  it('is named by the start time in ISO 8601 basic format', () => {
    expect(resultsFileName(new Date('2026-11-23T15:04:05.678Z'))).toBe('20261123T150405Z.json');
  });

  it('records the machine', () => {
    const machine = machineInfo({ postgres: '17.10', temporalCli: '1.9.1' });
    expect(machine.node).toBe(process.version);
    expect(machine.cpus.count).toBeGreaterThan(0);
    expect(machine.memoryGiB).toBeGreaterThan(0);
    expect(machine.loadAverage).toHaveLength(3);
    expect(machine).toMatchObject({ postgres: '17.10', temporalCli: '1.9.1' });
    expect(typeof machine.os).toBe('string');
  });
});

describe('command line', () => {
  it('takes names, flags and settings', () => {
    expect(parseBenchArgs(['widget-session-create', '--strict', '--cpu-prof', '--duration=2', '--rounds', '6'])).toEqual({
      names: ['widget-session-create'],
      strict: true,
      cpuProf: true,
      settings: { durationSeconds: '2', rounds: '6' },
      verbose: false,
    });
    expect(parseBenchArgs([])).toEqual({ names: [], strict: false, cpuProf: false, settings: {}, verbose: false });
    expect(parseBenchArgs(['--smoke', 'crypto']).settings).toEqual({ smoke: '1' });
  });

  it('refuses an unknown option or a setting without a value', () => {
    expect(() => parseBenchArgs(['--fast'])).toThrow('unknown option for bench: --fast');
    expect(() => parseBenchArgs(['--warmup'])).toThrow('--warmup needs a value');
  });
});

describe('discovery', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'bench-discovery-'));
    await writeFile(path.join(root, 'package.json'), JSON.stringify({ workspaces: ['services/bnpl', 'services/crypto', 'services/photos'] }));
    for (const [workspace, files] of [
      ['services/bnpl', ['widget-session-create.bench.js', 'widget-session-baseline.js', 'widget-session-create.bench.js.map']],
      ['services/crypto', ['payment-request-create.bench.js', 'list-read.bench.js']],
    ] as const) {
      await mkdir(path.join(root, workspace, 'dist', 'bench'), { recursive: true });
      for (const file of files) await writeFile(path.join(root, workspace, 'dist', 'bench', file), '');
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds every compiled *.bench.js, by workspace then name', () => {
    expect(discoverBenchmarks(root).map((b) => [b.workspace, b.name])).toEqual([
      ['services/bnpl', 'widget-session-create'],
      ['services/crypto', 'list-read'],
      ['services/crypto', 'payment-request-create'],
    ]);
    expect(discoverBenchmarks(root)[0]!.file).toBe(path.join(root, 'services/bnpl/dist/bench/widget-session-create.bench.js'));
  });

  it('selects by benchmark name or workspace folder, and names what exists when a name is unknown', () => {
    const all = discoverBenchmarks(root);
    expect(selectBenchmarks(all, []).length).toBe(3);
    expect(selectBenchmarks(all, ['list-read']).map((b) => b.name)).toEqual(['list-read']);
    expect(selectBenchmarks(all, ['crypto']).map((b) => b.name)).toEqual(['list-read', 'payment-request-create']);
    expect(() => selectBenchmarks(all, ['nope'])).toThrow('no benchmark named nope');
  });

  it('starts the chain nodes for the chain scans only', () => {
    const entry = (workspace: string, name: string) => ({ workspace, name, file: '' });
    expect(needsChainNodes(entry('services/crypto', 'chain-scan-ltc'))).toBe(true);
    expect(needsChainNodes(entry('services/crypto', 'payment-request-create'))).toBe(false);
    expect(needsChainNodes(entry('services/bnpl', 'chain-scan-ltc'))).toBe(false);
  });

  it('refuses two benchmarks with one name', async () => {
    await mkdir(path.join(root, 'services/photos/dist/bench'), { recursive: true });
    await writeFile(path.join(root, 'services/photos/dist/bench/list-read.bench.js'), '');
    expect(() => discoverBenchmarks(root)).toThrow('two benchmarks are named list-read (services/crypto and services/photos)');
  });
});
