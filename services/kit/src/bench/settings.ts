// How long and how hard every benchmark measures: one set of numbers for the whole run, set by `npm run bench`
// options through BENCH_* variables, so ours and the baseline always get exactly the same treatment.
import { z } from 'zod';
import { envInteger, loadConfig } from '../config/index.js';

export interface BenchSettings {
  /** Concurrent connections (or workers) of every load, ours and baseline alike. */
  connections: number;
  /** Seconds measured per side per round. */
  durationSeconds: number;
  /** Seconds of discarded load each side gets before its first round. */
  warmupSeconds: number;
  /** Rounds; sides alternate who goes first (ABBA), so drift on the machine hits both equally. */
  rounds: number;
  /**
   * A smoke run (`npm run bench -- --smoke`, and `npm test`'s bench-smoke test): every benchmark once, end to end, on
   * tiny data (benchSize) with the least load, so none can rot. Its figures mean nothing and are never compared.
   */
  smoke: boolean;
}

/** What a load needs of the settings (measureSideBySide): how hard and how long, not why. */
export type LoadSettings = Omit<BenchSettings, 'smoke'>;

/**
 * 10 connections = the default pool size of both pg.Pool and MikroORM, so neither side waits on its own pool more.
 * Four short rounds rather than one long one: on a shared machine load comes and goes, and alternating often spreads
 * it over both sides.
 */
export const DEFAULT_BENCH_SETTINGS: BenchSettings = { connections: 10, durationSeconds: 5, warmupSeconds: 3, rounds: 4, smoke: false };

/**
 * A smoke run's defaults: one round of two seconds per side (one second can pass without a response from a cold server
 * on a loaded machine), no warmup, two connections (still concurrent).
 */
export const SMOKE_BENCH_SETTINGS: BenchSettings = { connections: 2, durationSeconds: 2, warmupSeconds: 0, rounds: 1, smoke: true };

export const BENCH_SETTINGS_ENV = {
  connections: 'BENCH_CONNECTIONS',
  durationSeconds: 'BENCH_DURATION_SECONDS',
  warmupSeconds: 'BENCH_WARMUP_SECONDS',
  rounds: 'BENCH_ROUNDS',
  smoke: 'BENCH_SMOKE',
} as const satisfies Record<keyof BenchSettings, string>;

const envFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['1', 'true', '0', 'false', ''], { error: 'must be 1, true, 0 or false' }))
  .transform((value) => value === '1' || value === 'true');

const settingsEnv = z.object({
  BENCH_CONNECTIONS: envInteger(1, 10_000).optional(),
  BENCH_DURATION_SECONDS: envInteger(1, 3_600).optional(),
  BENCH_WARMUP_SECONDS: envInteger(0, 600).optional(),
  BENCH_ROUNDS: envInteger(1, 100).optional(),
  BENCH_SMOKE: envFlag.optional(),
});

/**
 * The run's settings: BENCH_* variables over the defaults (a bad value throws the kit's ConfigError). BENCH_SMOKE=1
 * switches the defaults to SMOKE_BENCH_SETTINGS; the other variables still override them.
 */
export function benchSettings(env: NodeJS.ProcessEnv = process.env, defaults: BenchSettings = DEFAULT_BENCH_SETTINGS): BenchSettings {
  const parsed = loadConfig(settingsEnv, env);
  const base = parsed.BENCH_SMOKE ? SMOKE_BENCH_SETTINGS : defaults;
  return {
    connections: parsed.BENCH_CONNECTIONS ?? base.connections,
    durationSeconds: parsed.BENCH_DURATION_SECONDS ?? base.durationSeconds,
    warmupSeconds: parsed.BENCH_WARMUP_SECONDS ?? base.warmupSeconds,
    rounds: parsed.BENCH_ROUNDS ?? base.rounds,
    smoke: base.smoke,
  };
}

/**
 * How much data a benchmark seeds or how many operations it repeats: `full` in a real run, `smoke` in a smoke run
 * (e.g. benchSize(1_000_000, 1_000) loans). One switch, so every benchmark shrinks the same way.
 */
export function benchSize(full: number, smoke: number, settings: Pick<BenchSettings, 'smoke'> = benchSettings()): number {
  return settings.smoke ? smoke : full;
}
