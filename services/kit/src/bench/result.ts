// The contract between one benchmark (a child process of `npm run bench`) and the runner: the benchmark writes one
// BenchmarkResult as JSON to the file named by BENCH_RESULT_FILE; the runner validates it, prints the table and
// collects it into bench/results/<date-time>.json.
import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { BenchRequestRefused } from './measure-http.js';
import type { MemoryGrowth } from './memory.js';
import type { BenchSettings } from './settings.js';
import type { SideBySide } from './side-by-side.js';
import { evaluateTarget, invalidReasons, type Comparison, type Measurement, type Target, type Verdict } from './stats.js';

/** Where the runner wants the result; unset when a benchmark is run by hand (it then prints the JSON). */
export const BENCH_RESULT_FILE_ENV = 'BENCH_RESULT_FILE';

export interface BenchmarkResult {
  name: string;
  /** What is measured against what, in one sentence. */
  description: string;
  settings: BenchSettings;
  ours: Measurement;
  baseline: Measurement;
  /** ours / baseline. */
  comparison: Comparison;
  target: Target;
  verdict: Verdict;
  /** Why the figures cannot be trusted (non-2xx responses, connection errors); a result with any is invalid. */
  invalid: string[];
  /** Anything a reader needs to interpret the figures (what runs beside the service, what is excluded). */
  notes: string[];
  /** The server's RSS growth under ours' load, when the benchmark measured it (Target.maxRssGrowthMiB). */
  memory?: MemoryGrowth;
}

export interface BenchmarkResultInput {
  name: string;
  description: string;
  settings: BenchSettings;
  measured: SideBySide;
  target: Target;
  notes?: string[];
  memory?: MemoryGrowth;
}

export function benchmarkResult({ name, description, settings, measured, target, notes = [], memory }: BenchmarkResultInput): BenchmarkResult {
  return {
    name,
    description,
    settings,
    ours: measured.ours,
    baseline: measured.baseline,
    comparison: measured.comparison,
    target,
    verdict: evaluateTarget(target, measured.comparison, measured.ours, memory),
    invalid: [...invalidReasons(measured.ours), ...invalidReasons(measured.baseline)],
    notes,
    ...(memory ? { memory } : {}),
  };
}

const latency = z.object({ p50: z.number(), p95: z.number(), p99: z.number(), mean: z.number(), max: z.number() });
const measurement = z.object({
  label: z.string(),
  throughput: z.number(),
  unit: z.string(),
  latencyMs: latency,
  operations: z.number(),
  seconds: z.number(),
  runs: z.array(z.number()),
  cpuMsPerOperation: z.number().optional(),
  failures: z.object({ non2xx: z.number(), statusCodes: z.record(z.string(), z.number()), errors: z.number(), timeouts: z.number() }),
});
// JSON has no Infinity: a ratio over a zero baseline arrives as null.
const ratio = z.number().nullable().transform((value) => value ?? Number.POSITIVE_INFINITY);
const resultSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  // Results written before smoke runs existed have no `smoke`: they were full runs.
  settings: z.object({ connections: z.number(), durationSeconds: z.number(), warmupSeconds: z.number(), rounds: z.number(), smoke: z.boolean().default(false) }),
  ours: measurement,
  baseline: measurement,
  comparison: z.object({ throughput: ratio, p50: ratio, p95: ratio, p99: ratio, throughputByRound: z.array(ratio), cpuPerOperation: ratio.optional() }),
  target: z.object({
    minThroughputRatio: z.number().optional(),
    maxP99Ratio: z.number().optional(),
    maxP50Ratio: z.number().optional(),
    minThroughput: z.number().optional(),
    maxRssGrowthMiB: z.number().optional(),
  }),
  verdict: z.object({ passed: z.boolean(), misses: z.array(z.string()) }),
  invalid: z.array(z.string()),
  notes: z.array(z.string()),
  memory: z.object({ label: z.string(), idleMiB: z.number(), peakMiB: z.number(), growthMiB: z.number(), sampleEveryMs: z.number() }).optional(),
});

/** Validates what a benchmark wrote; throws a readable error naming the first problems. */
export function parseBenchmarkResult(json: unknown): BenchmarkResult {
  const parsed = resultSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`not a benchmark result: ${problems.join('; ')}`);
}

/** A progress line of a running benchmark (its stdout is the runner's terminal). */
export function benchLog(line: string): void {
  process.stdout.write(`  ${line}\n`);
}

/**
 * The body of a benchmark's file: runs it, hands the result to the runner (or prints it when run by hand) and exits;
 * a failure prints its cause and exits 1, so the runner reports the benchmark as failed to run.
 */
export function runBenchmark(run: () => Promise<BenchmarkResult>): void {
  run()
    .then(async (result) => {
      const file = process.env[BENCH_RESULT_FILE_ENV];
      const json = `${JSON.stringify(result, null, 2)}\n`;
      if (file) await writeFile(file, json);
      else process.stdout.write(json);
      process.exit(0);
    })
    .catch((error: unknown) => {
      // A refused request is the benchmark's own finding (its message says it all); anything else gets its stack.
      const refused = error instanceof BenchRequestRefused;
      console.error(error instanceof Error ? (refused ? error.message : (error.stack ?? error.message)) : error);
      process.exit(1);
    });
}
