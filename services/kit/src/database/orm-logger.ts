// MikroORM's log output, routed into the service's pino logger. Queries are logged as SQL with placeholders
// only: parameter values carry customer data and credential hashes, so they never reach a log.
import type { LogContext, LoggerNamespace, LoggerOptions, Logger as OrmLogger } from '@mikro-orm/core';
import type { Logger } from '../logging/index.js';
import { recordQuerySpan } from '../observability/tracing.js';

export class PinoOrmLogger implements OrmLogger {
  private debugMode: boolean | LoggerNamespace[];

  constructor(
    private readonly logger: Logger,
    options: Pick<LoggerOptions, 'debugMode'>,
  ) {
    this.debugMode = options.debugMode ?? false;
  }

  log(namespace: string, message: string, context?: LogContext): void {
    if (!this.isEnabled(namespace as LoggerNamespace, context)) return;
    const level = context?.level === 'error' ? 'error' : context?.level === 'warning' ? 'warn' : 'debug';
    this.logger[level]({ orm: namespace }, message.replace(/\s+/g, ' ').trim());
  }

  error(namespace: string, message: string, context?: LogContext): void {
    this.log(namespace, message, { ...context, level: 'error' });
  }

  warn(namespace: string, message: string, context?: LogContext): void {
    this.log(namespace, message, { ...context, level: 'warning' });
  }

  logQuery(context: LogContext): void {
    const namespace = context.namespace ?? 'query';
    // Every statement MikroORM ran (not the slow-query logger's repeat of one) is a span of the active trace.
    if (namespace === 'query' && context.query) recordQuerySpan(context.query, context.took, context.level === 'error');
    // Failed and slow queries are always worth a line; the rest only in debug mode.
    const failed = context.level === 'error';
    const slow = namespace === 'slow-query';
    if (!failed && !slow && !this.isEnabled(namespace, context)) return;
    const entry = { orm: namespace, sql: context.query, tookMs: context.took, results: context.results, affected: context.affected };
    if (failed) this.logger.warn(entry, 'query failed');
    else if (slow) this.logger.warn(entry, 'slow query');
    else this.logger.debug(entry, 'query');
  }

  setDebugMode(debugMode: boolean | LoggerNamespace[]): void {
    this.debugMode = debugMode;
  }

  isEnabled(namespace: LoggerNamespace, context?: LogContext): boolean {
    // Never: MikroORM would inline the values into the SQL it hands us.
    if (namespace === 'query-params') return false;
    if (namespace === 'deprecated') return true;
    if (context?.enabled !== undefined) return context.enabled;
    const debugMode = context?.debugMode ?? this.debugMode;
    return Array.isArray(debugMode) ? debugMode.includes(namespace) : debugMode;
  }
}
