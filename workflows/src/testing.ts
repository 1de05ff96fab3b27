/**
 * `@tributary/workflows/testing`: installs the Temporal Runtime once per test process with quiet logging. Tests
 * provoke failing activities on purpose (and the time-skipping server lacks some capabilities the native core warns
 * about), which would otherwise print hundreds of lines per run. TEMPORAL_TEST_LOG_LEVEL (TRACE, DEBUG, INFO, WARN,
 * ERROR; default ERROR) turns it up when a test needs debugging.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

export function testLogLevel(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const wanted = env.TEMPORAL_TEST_LOG_LEVEL?.toUpperCase();
  return LEVELS.find((level) => level === wanted) ?? 'ERROR';
}

/** Installs the quiet Runtime unless one is already installed in this process (another suite did it). */
export function installTestRuntime(): void {
  const level = testLogLevel();
  try {
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level }, console: {} } } });
  } catch {
    // Already installed in this process: the Runtime is a per-process singleton.
  }
}
