// The arithmetic and contracts of @tributary/kit/bench: percentiles, combining runs, ratios, verdicts, settings, the
// result file the runner reads and the CPU profile summary. Pure functions, fixed inputs, no timing.
import { describe, expect, it } from '@jest/globals';
import {
  benchmarkResult,
  benchSettings,
  benchSize,
  combineRuns,
  compare,
  DEFAULT_BENCH_SETTINGS,
  SMOKE_BENCH_SETTINGS,
  describeTarget,
  evaluateTarget,
  invalidReasons,
  memoryGrowth,
  packageOf,
  parseBenchmarkResult,
  percentile,
  roundOrder,
  summarizeCpuProfile,
  summarizeLatencies,
  type CpuProfile,
  type Measurement,
  type RawRun,
} from '../src/bench/index.js';

const run = (ok: number, seconds: number, latenciesMs: number[], extra: Partial<RawRun> = {}): RawRun => ({
  ok,
  seconds,
  latenciesMs,
  statusCodes: {},
  errors: 0,
  timeouts: 0,
  ...extra,
});

function measurement(label: string, throughput: number, p99: number, runs: number[] = [throughput]): Measurement {
  return {
    label,
    throughput,
    unit: 'req/s',
    latencyMs: { p50: p99 / 4, p95: p99 / 2, p99, mean: p99 / 3, max: p99 * 2 },
    operations: throughput * 10,
    seconds: 10,
    runs,
    failures: { non2xx: 0, statusCodes: {}, errors: 0, timeouts: 0 },
  };
}

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.95)).toBe(95);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('summarizes unsorted samples numerically (not as strings)', () => {
    const summary = summarizeLatencies([10, 9, 100, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(summary.p50).toBe(6);
    expect(summary.max).toBe(100);
    expect(summary.p99).toBe(100);
    expect(summary.mean).toBeCloseTo(155 / 11);
    expect(summarizeLatencies([])).toEqual({ p50: 0, p95: 0, p99: 0, mean: 0, max: 0 });
  });
});

describe('combining runs', () => {
  it('divides all successes by all seconds and takes percentiles over every sample', () => {
    const m = combineRuns('ours', [run(1000, 5, [1, 2, 3]), run(500, 5, [4, 5, 6], { statusCodes: { '429': 2 } })]);
    expect(m.throughput).toBe(150);
    expect(m.runs).toEqual([200, 100]);
    expect(m.operations).toBe(1500);
    expect(m.seconds).toBe(10);
    expect(m.latencyMs.max).toBe(6);
    expect(m.latencyMs.p50).toBe(3);
    expect(m.failures).toEqual({ non2xx: 2, statusCodes: { '429': 2 }, errors: 0, timeouts: 0 });
  });

  it('gives CPU per operation only when every run measured its server\'s CPU', () => {
    expect(combineRuns('x', [run(100, 1, [1], { cpuMs: 150 }), run(300, 1, [1], { cpuMs: 250 })]).cpuMsPerOperation).toBe(1);
    expect(combineRuns('x', [run(100, 1, [1], { cpuMs: 150 }), run(300, 1, [1])]).cpuMsPerOperation).toBeUndefined();
    expect(combineRuns('x', [run(100, 1, [1])])).not.toHaveProperty('cpuMsPerOperation');
  });

  it('adds status counts of the same code across runs', () => {
    const m = combineRuns('x', [run(1, 1, [1], { statusCodes: { '500': 1 } }), run(1, 1, [1], { statusCodes: { '500': 2, '422': 1 }, errors: 3, timeouts: 1 })]);
    expect(m.failures).toEqual({ non2xx: 4, statusCodes: { '500': 3, '422': 1 }, errors: 3, timeouts: 1 });
  });
});

describe('ratios and targets', () => {
  it('compares ours over the baseline, round by round too', () => {
    const c = compare(measurement('ours', 600, 30, [500, 700]), measurement('base', 1200, 10, [1000, 1400]));
    expect(c.throughput).toBe(0.5);
    expect(c.p99).toBe(3);
    expect(c.p50).toBe(3);
    expect(c.throughputByRound).toEqual([0.5, 0.5]);
  });

  it('compares CPU per operation when both sides have it', () => {
    const ours = { ...measurement('ours', 100, 10), cpuMsPerOperation: 3 };
    const baseline = { ...measurement('base', 1000, 5), cpuMsPerOperation: 0.25 };
    expect(compare(ours, baseline).cpuPerOperation).toBe(12);
    expect(compare(measurement('a', 1, 1), baseline)).not.toHaveProperty('cpuPerOperation');
  });

  it('gives no round ratios when the sides ran a different number of rounds', () => {
    expect(compare(measurement('a', 1, 1, [1, 1]), measurement('b', 1, 1, [1])).throughputByRound).toEqual([]);
  });

  it('treats a zero baseline as an infinite ratio, and zero over zero as equal', () => {
    expect(compare(measurement('a', 5, 1), measurement('b', 0, 1)).throughput).toBe(Number.POSITIVE_INFINITY);
    expect(compare(measurement('a', 0, 1), measurement('b', 0, 1)).throughput).toBe(1);
  });

  const target = { minThroughputRatio: 0.5, maxP99Ratio: 3 };

  it('passes on the bounds themselves', () => {
    const ours = measurement('ours', 500, 30);
    expect(evaluateTarget(target, compare(ours, measurement('base', 1000, 10)), ours)).toEqual({ passed: true, misses: [] });
  });

  it('names every missed bound', () => {
    const ours = measurement('ours', 400, 31);
    const verdict = evaluateTarget({ ...target, maxP50Ratio: 1.25, minThroughput: 450 }, compare(ours, measurement('base', 1000, 10)), ours);
    expect(verdict.passed).toBe(false);
    expect(verdict.misses).toEqual([
      "throughput 0.40× the baseline's, below the 0.50× target",
      "p99 3.10× the baseline's, above the 3.00× limit",
      "p50 3.10× the baseline's, above the 1.25× limit",
      'throughput 400 req/s, below the 450 req/s floor',
    ]);
  });

  it('bounds the peak RSS growth when the benchmark measured memory, and misses it when it did not', () => {
    const ours = measurement('ours', 500, 30);
    const comparison = compare(ours, measurement('base', 1000, 10));
    const bounded = { ...target, maxRssGrowthMiB: 100 };
    expect(evaluateTarget(bounded, comparison, ours, memoryGrowth('bnpl', 80 * 2 ** 20, 180 * 2 ** 20, 50))).toEqual({ passed: true, misses: [] });
    expect(evaluateTarget(bounded, comparison, ours, memoryGrowth('bnpl', 80 * 2 ** 20, 180.5 * 2 ** 20, 50)).misses).toEqual(['peak RSS 100.5 MiB above idle, over the 100 MiB limit']);
    expect(evaluateTarget(bounded, comparison, ours).misses).toEqual(['peak RSS growth was not measured']);
    expect(describeTarget(bounded)).toBe('≥0.50× thr, p99 ≤3.00×, RSS +≤100 MiB');
  });

  it('describes a target for the table', () => {
    expect(describeTarget(target)).toBe('≥0.50× thr, p99 ≤3.00×');
    expect(describeTarget({})).toBe('none');
  });

  it('calls a measurement with non-2xx responses, connection errors or no success invalid', () => {
    const bad: Measurement = { ...measurement('ours', 100, 1), failures: { non2xx: 3, statusCodes: { '422': 2, '500': 1 }, errors: 1, timeouts: 1 } };
    expect(invalidReasons(bad)).toEqual(['ours: 3 non-2xx responses (2× 422, 1× 500)', 'ours: 1 connection errors (1 timeouts)']);
    expect(invalidReasons({ ...measurement('base', 0, 1), operations: 0 })).toEqual(['base: no successful operation was measured']);
    expect(invalidReasons(measurement('fine', 100, 1))).toEqual([]);
  });
});

describe('the schedule and the settings', () => {
  it('alternates who goes first (ABBA)', () => {
    expect(roundOrder(1)).toEqual(['ours', 'baseline']);
    expect(roundOrder(4)).toEqual(['ours', 'baseline', 'baseline', 'ours', 'ours', 'baseline', 'baseline', 'ours']);
  });

  it('reads BENCH_* over the defaults and refuses nonsense', () => {
    expect(benchSettings({})).toEqual(DEFAULT_BENCH_SETTINGS);
    expect(benchSettings({ BENCH_CONNECTIONS: '32', BENCH_DURATION_SECONDS: '1', BENCH_WARMUP_SECONDS: '0', BENCH_ROUNDS: '1' })).toEqual({
      connections: 32,
      durationSeconds: 1,
      warmupSeconds: 0,
      rounds: 1,
      smoke: false,
    });
    expect(() => benchSettings({ BENCH_ROUNDS: '0' })).toThrow(/BENCH_ROUNDS must be at least 1/);
    expect(() => benchSettings({ BENCH_DURATION_SECONDS: 'ten' })).toThrow(/BENCH_DURATION_SECONDS must be a whole number/);
    expect(() => benchSettings({ BENCH_SMOKE: 'yes' })).toThrow(/BENCH_SMOKE must be 1, true, 0 or false/);
  });

  it('switches to the smoke defaults with BENCH_SMOKE, which the other variables still override', () => {
    expect(benchSettings({ BENCH_SMOKE: '1' })).toEqual(SMOKE_BENCH_SETTINGS);
    expect(benchSettings({ BENCH_SMOKE: 'true', BENCH_ROUNDS: '2' })).toEqual({ ...SMOKE_BENCH_SETTINGS, rounds: 2 });
    expect(benchSettings({ BENCH_SMOKE: 'false' })).toEqual(DEFAULT_BENCH_SETTINGS);
    expect(benchSettings({ BENCH_SMOKE: '0' })).toEqual(DEFAULT_BENCH_SETTINGS);
  });

  it('sizes data by the run: full, or tiny in a smoke run', () => {
    expect(benchSize(1_000_000, 1_000, DEFAULT_BENCH_SETTINGS)).toBe(1_000_000);
    expect(benchSize(1_000_000, 1_000, SMOKE_BENCH_SETTINGS)).toBe(1_000);
  });
});

describe('the result file', () => {
  const result = benchmarkResult({
    name: 'thing-create',
    description: 'POST /things vs a bare INSERT',
    settings: DEFAULT_BENCH_SETTINGS,
    measured: (() => {
      const ours = measurement('ours', 300, 40, [280, 320]);
      const baseline = measurement('baseline', 1000, 10, [900, 1100]);
      return { ours, baseline, comparison: compare(ours, baseline) };
    })(),
    target: { minThroughputRatio: 0.5, maxP99Ratio: 3 },
    notes: ['a note'],
  });

  it('carries the verdict and the reasons a result is invalid', () => {
    expect(result.verdict.passed).toBe(false);
    expect(result.verdict.misses).toHaveLength(2);
    expect(result.invalid).toEqual([]);
    expect(result.notes).toEqual(['a note']);
  });

  it('survives JSON (an infinite ratio comes back as Infinity)', () => {
    const infinite = { ...result, comparison: { ...result.comparison, p99: Number.POSITIVE_INFINITY } };
    const parsed = parseBenchmarkResult(JSON.parse(JSON.stringify(infinite)));
    expect(parsed.comparison.p99).toBe(Number.POSITIVE_INFINITY);
    expect(parsed).toEqual(infinite);
  });

  it('refuses what is not a result, naming the problem', () => {
    expect(() => parseBenchmarkResult({ name: 'x' })).toThrow(/not a benchmark result: description/);
    expect(() => parseBenchmarkResult({ ...result, ours: { ...result.ours, throughput: 'fast' } })).toThrow(/ours\.throughput/);
  });
});

describe('CPU profile summary', () => {
  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
  const profile: CpuProfile = {
    startTime: 0,
    endTime: 1_000_000, // 1 s in microseconds
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), hitCount: 0 },
      { id: 2, callFrame: frame('(idle)', ''), hitCount: 5 },
      { id: 3, callFrame: frame('hash', 'file:///repo/node_modules/bcryptjs/index.js'), hitCount: 3 },
      { id: 4, callFrame: frame('flush', 'file:///repo/node_modules/@mikro-orm/core/EntityManager.js'), hitCount: 1 },
      { id: 5, callFrame: frame('create', 'file:///repo/services/bnpl/dist/modules/x.js'), hitCount: 1 },
    ],
  };

  it('splits busy time by function and by package, idle left out', () => {
    const summary = summarizeCpuProfile(profile);
    expect(summary.totalMs).toBe(1000);
    expect(summary.busyMs).toBe(500);
    expect(summary.packages.map((p) => [p.name, p.percent])).toEqual([
      ['bcryptjs', 60],
      ['@mikro-orm/core', 20],
      ['services/bnpl', 20],
    ]);
    expect(summary.functions[0]).toEqual({ name: 'hash bcryptjs/index.js:10', selfMs: 300, percent: 60 });
  });

  it('counts samples when the profile has them (hitCount is then absent)', () => {
    const sampled = { ...profile, nodes: profile.nodes.map(({ hitCount: _h, ...node }) => node), samples: [3, 3, 4, 2] };
    expect(summarizeCpuProfile(sampled).packages.map((p) => [p.name, Math.round(p.percent)])).toEqual([
      ['bcryptjs', 67],
      ['@mikro-orm/core', 33],
    ]);
  });

  it('names packages', () => {
    expect(packageOf(frame('x', 'node:internal/streams/readable'))).toBe('node (internal)');
    expect(packageOf(frame('(garbage collector)', ''))).toBe('(garbage collector)');
    expect(packageOf(frame('parse', ''))).toBe('(native)');
    expect(packageOf(frame('x', 'file:///r/node_modules/pg/lib/client.js'))).toBe('pg');
    expect(packageOf(frame('x', 'file:///r/services/kit/dist/http/app.js'))).toBe('services/kit');
  });
});
