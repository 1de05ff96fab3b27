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
}

/**
 * 10 connections = the default pool size of both pg.Pool and MikroORM, so neither side waits on its own pool more.
 * Four short rounds rather than one long one: on a shared machine load comes and goes, and alternating often spreads
 * it over both sides.
 */
export const DEFAULT_BENCH_SETTINGS: BenchSettings = { connections: 10, durationSeconds: 5, warmupSeconds: 3, rounds: 4 };

export const BENCH_SETTINGS_ENV = {
  connections: 'BENCH_CONNECTIONS',
  durationSeconds: 'BENCH_DURATION_SECONDS',
  warmupSeconds: 'BENCH_WARMUP_SECONDS',
  rounds: 'BENCH_ROUNDS',
} as const satisfies Record<keyof BenchSettings, string>;

const settingsEnv = z.object({
  BENCH_CONNECTIONS: envInteger(1, 10_000).optional(),
  BENCH_DURATION_SECONDS: envInteger(1, 3_600).optional(),
  BENCH_WARMUP_SECONDS: envInteger(0, 600).optional(),
  BENCH_ROUNDS: envInteger(1, 100).optional(),
});

/** The run's settings: BENCH_* variables over the defaults (a bad value throws the kit's ConfigError). */
export function benchSettings(env: NodeJS.ProcessEnv = process.env, defaults: BenchSettings = DEFAULT_BENCH_SETTINGS): BenchSettings {
  const parsed = loadConfig(settingsEnv, env);
  return {
    connections: parsed.BENCH_CONNECTIONS ?? defaults.connections,
    durationSeconds: parsed.BENCH_DURATION_SECONDS ?? defaults.durationSeconds,
    warmupSeconds: parsed.BENCH_WARMUP_SECONDS ?? defaults.warmupSeconds,
    rounds: parsed.BENCH_ROUNDS ?? defaults.rounds,
  };
}
