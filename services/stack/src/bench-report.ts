// What `npm run bench` prints and keeps: one table row per benchmark, the reasons behind every MISS, INVALID or
// FAILED, and bench/results/<date-time>.json with the machine the figures came from. Pure except machineInfo.
import { cpus, freemem, loadavg, totalmem, type as osType, release, arch } from 'node:os';
import { describeTarget, type BenchmarkResult, type CpuProfileSummary, type Measurement } from '@tributary/kit/bench';
import { renderTable } from './url-table.js';

/**
 * passed: every bound of the target met; missed: ran cleanly, a bound missed; invalid: ran, but a side got non-2xx
 * responses or connection errors (its figures mean nothing); failed: did not run to a result.
 */
export type BenchStatus = 'passed' | 'missed' | 'invalid' | 'failed';

export interface BenchProfile {
  /** The .cpuprofile file, relative to the repository root. */
  file: string;
  summary: CpuProfileSummary;
}

export interface BenchOutcome {
  name: string;
  workspace: string;
  status: BenchStatus;
  seconds: number;
  result?: BenchmarkResult;
  /** Why it failed to run. */
  error?: string;
  profiles?: BenchProfile[];
}

export interface MachineInfo {
  os: string;
  cpus: { model: string; count: number; speedMHz: number };
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1, 5 and 15 minute load averages when the run started: a busy machine explains noisy figures. */
  loadAverage: number[];
  node: string;
  postgres?: string;
  temporalCli?: string;
}

export interface BenchRunReport {
  startedAt: string;
  finishedAt: string;
  commit?: string;
  machine: MachineInfo;
  benchmarks: BenchOutcome[];
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

export function machineInfo(extra: Pick<MachineInfo, 'postgres' | 'temporalCli'> = {}): MachineInfo {
  const list = cpus();
  return {
    os: `${osType()} ${release()} ${arch()}`,
    cpus: { model: list[0]?.model.trim() ?? 'unknown', count: list.length, speedMHz: list[0]?.speed ?? 0 },
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    freeMemoryGiB: round(freemem() / 2 ** 30, 1),
    loadAverage: loadavg().map((value) => round(value)),
    node: process.version,
    ...extra,
  };
}

/** The status of a benchmark that produced a result. */
export function statusOf(result: BenchmarkResult): BenchStatus {
  if (result.invalid.length > 0) return 'invalid';
  return result.verdict.passed ? 'passed' : 'missed';
}

/** bench/results/<this>.json: the start time in ISO 8601 basic format (UTC), safe in file names on every OS. */
export function resultsFileName(date: Date): string {
  return `${date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}.json`;
}

const STATUS_LABEL: Record<BenchStatus, string> = { passed: 'PASS', missed: 'MISS', invalid: 'INVALID', failed: 'FAILED' };

const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const cpu = (ours: Measurement, baseline: Measurement): string =>
  ours.cpuMsPerOperation !== undefined && baseline.cpuMsPerOperation !== undefined ? `${ours.cpuMsPerOperation.toFixed(2)}/${baseline.cpuMsPerOperation.toFixed(2)}` : '—';
const percentiles = (m: Measurement): string => `${ms(m.latencyMs.p50)}/${ms(m.latencyMs.p95)}/${ms(m.latencyMs.p99)}`;
const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '∞');
/** The ratio with the range of its rounds, e.g. "0.62× (0.55–0.70)": a wide range means a noisy machine. */
const ratioWithRange = (value: number, rounds: readonly number[]): string =>
  rounds.length > 1 ? `${times(value)} (${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)})` : times(value);

export const BENCH_TABLE_HEADER = [
  'benchmark',
  'ours/s',
  'baseline/s',
  'ratio (rounds)',
  'ours p50/p95/p99 ms',
  'baseline p50/p95/p99 ms',
  'p99 ratio',
  'cpu ms/op',
  'rss +MiB',
  'target',
  'result',
];

export function benchTableRow(outcome: BenchOutcome): string[] {
  const status = STATUS_LABEL[outcome.status];
  const r = outcome.result;
  if (!r) return [outcome.name, '—', '—', '—', '—', '—', '—', '—', '—', '—', status];
  return [
    outcome.name,
    r.ours.throughput.toFixed(0),
    r.baseline.throughput.toFixed(0),
    ratioWithRange(r.comparison.throughput, r.comparison.throughputByRound),
    percentiles(r.ours),
    percentiles(r.baseline),
    times(r.comparison.p99),
    cpu(r.ours, r.baseline),
    r.memory ? r.memory.growthMiB.toFixed(1) : '—',
    describeTarget(r.target),
    status,
  ];
}

export function benchTable(outcomes: readonly BenchOutcome[]): string {
  return renderTable(BENCH_TABLE_HEADER, outcomes.map(benchTableRow));
}

/** One line per thing a reader must know: each miss, each reason a result is invalid, each failure to run. */
export function benchFindings(outcomes: readonly BenchOutcome[]): string[] {
  return outcomes.flatMap((outcome) => {
    if (outcome.status === 'failed') return [`${outcome.name} FAILED: ${outcome.error ?? 'no result'}`];
    const r = outcome.result!;
    // Invalid figures say nothing about the target, so their misses are not listed.
    if (r.invalid.length > 0) return r.invalid.map((reason) => `${outcome.name} INVALID: ${reason}`);
    return r.verdict.misses.map((miss) => `${outcome.name} MISS: ${miss}`);
  });
}

/**
 * The command's exit code: 1 when a benchmark failed to run or its figures are invalid; a missed target is reported
 * but exits 0 unless `strict` (figures on a shared machine are noisy; CI that gates on them passes --strict).
 */
export function benchExitCode(outcomes: readonly BenchOutcome[], strict: boolean): number {
  if (outcomes.some((o) => o.status === 'failed' || o.status === 'invalid')) return 1;
  if (strict && outcomes.some((o) => o.status === 'missed')) return 1;
  return 0;
}

export function summaryOf(outcomes: readonly BenchOutcome[]): string {
  const count = (status: BenchStatus): number => outcomes.filter((o) => o.status === status).length;
  return `${count('passed')} passed, ${count('missed')} missed, ${count('invalid')} invalid, ${count('failed')} failed`;
}
