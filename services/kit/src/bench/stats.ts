// Pure arithmetic of a benchmark: latency percentiles, one measurement out of several runs, ours-vs-baseline
// ratios and the verdict against a target. No I/O here, so all of it is unit-tested.
import type { MemoryGrowth } from './memory.js';

/** Latencies in milliseconds. */
export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** What one load run saw (one autocannon run, or one loop of operations). */
export interface RawRun {
  /** Operations that succeeded (2xx responses for HTTP). */
  ok: number;
  /** Seconds the run measured. */
  seconds: number;
  /** Latency of every completed operation, milliseconds. */
  latenciesMs: number[];
  /** Responses outside 2xx, by status code. */
  statusCodes: Record<string, number>;
  /** Connection errors (timeouts included) and timeouts alone. */
  errors: number;
  timeouts: number;
  /** CPU time the server's processes used during the run, milliseconds (Linux; absent elsewhere). */
  cpuMs?: number;
}

/** One side of a comparison, over all its measured runs. */
export interface Measurement {
  label: string;
  /** Successful operations per second over every measured second. */
  throughput: number;
  unit: string;
  latencyMs: LatencySummary;
  operations: number;
  seconds: number;
  /** Throughput of each measured run, in order (their spread shows how noisy the machine was). */
  runs: number[];
  /**
   * CPU milliseconds the server spent per successful operation (Linux, when the runner knows the server's process).
   * Unlike throughput it hardly moves when other programs load the machine.
   */
  cpuMsPerOperation?: number;
  /** Non-2xx responses (by status) and connection errors: any of them makes the measurement invalid. */
  failures: { non2xx: number; statusCodes: Record<string, number>; errors: number; timeouts: number };
}

/** ours / baseline: above 1 means ours is faster (throughput) or slower (latency). */
export interface Comparison {
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  /** Throughput ratio of each round (ours' run i over the baseline's run i): their spread is the run's noise. */
  throughputByRound: number[];
  /** ours' CPU per operation over the baseline's, when both were measured. */
  cpuPerOperation?: number;
}

/** The bar a benchmark must clear; every bound is optional. */
export interface Target {
  /** ours.throughput / baseline.throughput at least this (0.5 = half the baseline's throughput). */
  minThroughputRatio?: number;
  /** ours.p99 / baseline.p99 at most this. */
  maxP99Ratio?: number;
  /** ours.p50 / baseline.p50 at most this. */
  maxP50Ratio?: number;
  /** ours.throughput at least this, in ours.unit (an absolute floor, e.g. deliveries per second). */
  minThroughput?: number;
  /** The server's peak RSS under the load at most this many MiB above its idle RSS (needs the result's memory). */
  maxRssGrowthMiB?: number;
}

export interface Verdict {
  passed: boolean;
  /** One sentence per missed bound; empty when passed. */
  misses: string[];
}

/** The q-quantile (0..1) of ascending `sorted` by the nearest-rank method; 0 for no samples. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarizeLatencies(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const values = Array.from(sorted);
  const sum = values.reduce((total, value) => total + value, 0);
  return {
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
    p99: percentile(values, 0.99),
    mean: values.length ? sum / values.length : 0,
    max: values.length ? values[values.length - 1]! : 0,
  };
}

/** One measurement out of the runs of one side: throughput over the summed seconds, percentiles over every sample. */
export function combineRuns(label: string, runs: readonly RawRun[], unit = 'req/s'): Measurement {
  const operations = runs.reduce((total, run) => total + run.ok, 0);
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statusCodes)) statusCodes[status] = (statusCodes[status] ?? 0) + count;
  }
  const cpuMs = runs.every((run) => run.cpuMs !== undefined) ? runs.reduce((total, run) => total + run.cpuMs!, 0) : undefined;
  return {
    label,
    throughput: seconds > 0 ? operations / seconds : 0,
    unit,
    latencyMs: summarizeLatencies(runs.flatMap((run) => run.latenciesMs)),
    operations,
    seconds,
    runs: runs.map((run) => (run.seconds > 0 ? run.ok / run.seconds : 0)),
    ...(cpuMs !== undefined && operations > 0 ? { cpuMsPerOperation: cpuMs / operations } : {}),
    failures: {
      non2xx: Object.values(statusCodes).reduce((total, count) => total + count, 0),
      statusCodes,
      errors: runs.reduce((total, run) => total + run.errors, 0),
      timeouts: runs.reduce((total, run) => total + run.timeouts, 0),
    },
  };
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : a > 0 ? Number.POSITIVE_INFINITY : 1);

/** ours / baseline for throughput and each latency percentile. */
export function compare(ours: Measurement, baseline: Measurement): Comparison {
  return {
    throughput: ratio(ours.throughput, baseline.throughput),
    p50: ratio(ours.latencyMs.p50, baseline.latencyMs.p50),
    p95: ratio(ours.latencyMs.p95, baseline.latencyMs.p95),
    p99: ratio(ours.latencyMs.p99, baseline.latencyMs.p99),
    throughputByRound: ours.runs.length === baseline.runs.length ? ours.runs.map((run, i) => ratio(run, baseline.runs[i]!)) : [],
    ...(ours.cpuMsPerOperation !== undefined && baseline.cpuMsPerOperation !== undefined
      ? { cpuPerOperation: ratio(ours.cpuMsPerOperation, baseline.cpuMsPerOperation) }
      : {}),
  };
}

const fixed = (value: number): string => value.toFixed(2);

/** Checks a comparison (and ours, for absolute floors; memory, for the RSS bound) against the target. */
export function evaluateTarget(target: Target, comparison: Comparison, ours: Pick<Measurement, 'throughput' | 'unit'>, memory?: Pick<MemoryGrowth, 'growthMiB'>): Verdict {
  const misses: string[] = [];
  if (target.minThroughputRatio !== undefined && comparison.throughput < target.minThroughputRatio) {
    misses.push(`throughput ${fixed(comparison.throughput)}× the baseline's, below the ${fixed(target.minThroughputRatio)}× target`);
  }
  if (target.maxP99Ratio !== undefined && comparison.p99 > target.maxP99Ratio) {
    misses.push(`p99 ${fixed(comparison.p99)}× the baseline's, above the ${fixed(target.maxP99Ratio)}× limit`);
  }
  if (target.maxP50Ratio !== undefined && comparison.p50 > target.maxP50Ratio) {
    misses.push(`p50 ${fixed(comparison.p50)}× the baseline's, above the ${fixed(target.maxP50Ratio)}× limit`);
  }
  if (target.minThroughput !== undefined && ours.throughput < target.minThroughput) {
    misses.push(`throughput ${ours.throughput.toFixed(0)} ${ours.unit}, below the ${target.minThroughput} ${ours.unit} floor`);
  }
  if (target.maxRssGrowthMiB !== undefined) {
    if (!memory) misses.push('peak RSS growth was not measured');
    else if (memory.growthMiB > target.maxRssGrowthMiB) misses.push(`peak RSS ${memory.growthMiB.toFixed(1)} MiB above idle, over the ${target.maxRssGrowthMiB} MiB limit`);
  }
  return { passed: misses.length === 0, misses };
}

/** Short text of a target for the table, e.g. "≥0.50× req/s, p99 ≤3.00×". */
export function describeTarget(target: Target): string {
  const parts: string[] = [];
  if (target.minThroughputRatio !== undefined) parts.push(`≥${fixed(target.minThroughputRatio)}× thr`);
  if (target.minThroughput !== undefined) parts.push(`≥${target.minThroughput}/s`);
  if (target.maxP50Ratio !== undefined) parts.push(`p50 ≤${fixed(target.maxP50Ratio)}×`);
  if (target.maxP99Ratio !== undefined) parts.push(`p99 ≤${fixed(target.maxP99Ratio)}×`);
  if (target.maxRssGrowthMiB !== undefined) parts.push(`RSS +≤${target.maxRssGrowthMiB} MiB`);
  return parts.join(', ') || 'none';
}

/** Why a measurement cannot be trusted (non-2xx responses, connection errors, nothing measured); empty when valid. */
export function invalidReasons(measurement: Measurement): string[] {
  const reasons: string[] = [];
  const { non2xx, statusCodes, errors, timeouts } = measurement.failures;
  if (non2xx > 0) {
    const byStatus = Object.entries(statusCodes)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    reasons.push(`${measurement.label}: ${non2xx} non-2xx responses (${byStatus})`);
  }
  if (errors > 0) reasons.push(`${measurement.label}: ${errors} connection errors (${timeouts} timeouts)`);
  if (measurement.operations === 0) reasons.push(`${measurement.label}: no successful operation was measured`);
  return reasons;
}
