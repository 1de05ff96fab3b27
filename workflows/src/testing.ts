/**
 * `@tributary/workflows/testing`: the time-skipping test environment of workflow tests, and the Temporal Runtime
 * installed once per test process with quiet logging. Tests
 * provoke failing activities on purpose (and the time-skipping server lacks some capabilities the native core warns
 * about), which would otherwise print hundreds of lines per run. TEMPORAL_TEST_LOG_LEVEL (TRACE, DEBUG, INFO, WARN,
 * ERROR; default ERROR) turns it up when a test needs debugging.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
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

/**
 * Temporal's time-skipping test server (the executable `npm test` provides in TEMPORAL_TEST_SERVER_PATH), with the quiet
 * Runtime installed: long timers pass in moments while a test awaits a result. Tear it down after the suite.
 */
export async function startTimeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (!path) throw new Error('TEMPORAL_TEST_SERVER_PATH is not set (the time-skipping test server executable)');
  installTestRuntime();
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
}
