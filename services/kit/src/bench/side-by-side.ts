// Ours and the baseline measured in the same process tree at the same time: equal warmup, then rounds in ABBA
// order (ours, baseline | baseline, ours | …), so a slow patch on a shared machine, a growing table or a JIT
// tier-up lands on both sides rather than on whichever happened to run second.
import { combineRuns, compare, type Comparison, type Measurement, type RawRun } from './stats.js';
import { processCpuMs } from './server-process.js';
import type { LoadSettings } from './settings.js';

/** Anything a benchmark can put load on: an HTTP endpoint (httpLoadRunner) or a loop of operations. */
export interface LoadRunner {
  label: string;
  /** Unit of throughput, e.g. 'req/s'. */
  unit?: string;
  /** One operation before any load: throws if it does not succeed (a broken benchmark fails fast). */
  check?(): Promise<void>;
  /** Processes whose CPU time each run counts (the server under test); see processCpuMs. */
  pids?: number[];
  run(connections: number, seconds: number): Promise<RawRun>;
}

export interface SideBySide {
  ours: Measurement;
  baseline: Measurement;
  comparison: Comparison;
}

export type Side = 'ours' | 'baseline';

/** Who runs when: round 0 ours first, round 1 baseline first, and so on. */
export function roundOrder(rounds: number): Side[] {
  const order: Side[] = [];
  for (let round = 0; round < rounds; round += 1) order.push(...(round % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const)));
  return order;
}

/** CPU time of the runner's processes, summed; undefined unless every one can be read. */
function cpuOf(pids: readonly number[] | undefined): number | undefined {
  if (!pids?.length) return undefined;
  const each = pids.map(processCpuMs);
  return each.every((ms) => ms !== undefined) ? each.reduce((total, ms) => total! + ms!, 0) : undefined;
}

/** One run, with the CPU time its server used when that can be read. */
async function measuredRun(runner: LoadRunner, settings: LoadSettings): Promise<RawRun> {
  const before = cpuOf(runner.pids);
  const run = await runner.run(settings.connections, settings.durationSeconds);
  const after = cpuOf(runner.pids);
  return before !== undefined && after !== undefined ? { ...run, cpuMs: after - before } : run;
}

export async function measureSideBySide(
  runners: Record<Side, LoadRunner>,
  settings: LoadSettings,
  progress: (line: string) => void = () => undefined,
): Promise<SideBySide> {
  for (const side of ['ours', 'baseline'] as const) await runners[side].check?.();
  if (settings.warmupSeconds > 0) {
    for (const side of ['ours', 'baseline'] as const) {
      progress(`warmup ${runners[side].label} (${settings.warmupSeconds}s)`);
      await runners[side].run(settings.connections, settings.warmupSeconds);
    }
  }
  const runs: Record<Side, RawRun[]> = { ours: [], baseline: [] };
  for (const [index, side] of roundOrder(settings.rounds).entries()) {
    const run = await measuredRun(runners[side], settings);
    runs[side].push(run);
    const round = Math.floor(index / 2) + 1;
    progress(`round ${round}/${settings.rounds} ${runners[side].label}: ${(run.seconds > 0 ? run.ok / run.seconds : 0).toFixed(0)} ${runners[side].unit ?? 'req/s'}`);
  }
  const ours = combineRuns(runners.ours.label, runs.ours, runners.ours.unit);
  const baseline = combineRuns(runners.baseline.label, runs.baseline, runners.baseline.unit);
  return { ours, baseline, comparison: compare(ours, baseline) };
}
