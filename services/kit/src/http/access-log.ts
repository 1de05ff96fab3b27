// One access log line per request, and the request's logger. Written here rather than with pino-http because
// pino-http builds two child loggers per request and serialises the whole request (headers included) into one of
// them up front: about a tenth of a create's CPU in bnpl's widget-session-create benchmark, for a line that carried
// every header. Here the request's child logger is built only when something logs through it (`req.log`), and the
// line carries what an operator reads: request id, method, URL (capability tokens shortened, sensitive query values
// redacted), client address, status and time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../logging/index.js';
import { assignRequestId } from './request-id.js';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id), set by the access log. */
    id: string;
    /** A logger whose lines carry the request id. */
    log: Logger;
  }
  interface ServerResponse {
    /** An unexpected error the response answers; the access line logs it, with its stack, at error level. */
    err?: Error;
  }
}

export const ACCESS_LOG_MESSAGES = {
  completed: 'request completed',
  errored: 'request errored',
  aborted: 'request aborted',
} as const;

export interface AccessLogOptions {
  /** Paths answered without a line when they succeed (orchestrators' probes every few seconds). */
  quietPaths?: ReadonlySet<string>;
  /** The URL the line shows (capabilities.ts shortens capability tokens); the URL as sent by default. */
  loggedUrl?: (req: IncomingMessage) => string;
}

const urlAsSent = (req: IncomingMessage): string => (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';

/** Assigns the request id (echoed as X-Request-Id), provides `req.log`, and logs the request once it is over. */
export function accessLog(logger: Logger, options: AccessLogOptions = {}): RequestHandler {
  const quietPaths = options.quietPaths ?? new Set<string>();
  const loggedUrl = options.loggedUrl ?? urlAsSent;
  return (req, res, next) => {
    const started = performance.now();
    const requestId = assignRequestId(req, res);
    req.id = requestId;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ requestId })),
    });
    res.once('close', () => logLine(logger, req, res, { elapsedMs: performance.now() - started, quietPaths, loggedUrl }));
    next();
  };
}

interface LineContext {
  elapsedMs: number;
  quietPaths: ReadonlySet<string>;
  loggedUrl: (req: IncomingMessage) => string;
}

function logLine(logger: Logger, req: IncomingMessage, res: ServerResponse, { elapsedMs, quietPaths, loggedUrl }: LineContext): void {
  const aborted = !res.writableFinished;
  const failed = res.err !== undefined || res.statusCode >= 500;
  if (!aborted && !failed && res.statusCode < 400 && quietPaths.has(req.url?.split('?')[0] ?? '')) return;
  const line = {
    requestId: req.id,
    req: { method: req.method, url: loggedUrl(req), remoteAddress: req.socket.remoteAddress },
    res: { statusCode: res.statusCode },
    responseTime: Math.round(elapsedMs * 10) / 10,
    ...(res.err ? { err: res.err } : {}),
  };
  if (failed) logger.error(line, ACCESS_LOG_MESSAGES.errored);
  else if (aborted) logger.warn(line, ACCESS_LOG_MESSAGES.aborted);
  else if (res.statusCode >= 400) logger.warn(line, ACCESS_LOG_MESSAGES.completed);
  else logger.info(line, ACCESS_LOG_MESSAGES.completed);
}
