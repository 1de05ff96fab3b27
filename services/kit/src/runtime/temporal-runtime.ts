// The worker process's Temporal Runtime logs through the service's pino logger, so an operator reads one JSON log
// (worker lifecycle, activity failures, workflow.log lines, the native core's warnings) instead of pino mixed with
// Temporal's plain-text default. Installed once per process, before the worker's NativeConnection is made.
import { Runtime, type LogLevel, type LogMetadata, type Logger as TemporalLogger } from '@temporalio/worker';
import type { Logger } from '../logging/index.js';

const PINO_METHOD: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Temporal's Logger interface over a pino logger; `error` metadata goes to pino's `err` serializer. */
export function temporalLoggerFor(logger: Logger): TemporalLogger {
  const log = (level: LogLevel, message: string, meta: LogMetadata = {}) => {
    const { error, ...rest } = meta as LogMetadata & { error?: unknown };
    const fields: Record<string, unknown> = { ...(rest as Record<string, unknown>), component: 'temporal' };
    if (error !== undefined) fields.err = error;
    logger[PINO_METHOD[level]](fields, message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

/**
 * Installs the process's Temporal Runtime with `logger`; the native core's own logs are forwarded to it from WARN up.
 * Returns false (and changes nothing) when a Runtime was already installed in this process.
 */
export function installTemporalRuntime(logger: Logger): boolean {
  try {
    Runtime.install({ logger: temporalLoggerFor(logger), telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } } });
    return true;
  } catch {
    logger.debug('Temporal Runtime already installed in this process; keeping it');
    return false;
  }
}
