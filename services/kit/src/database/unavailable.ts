// A request that fails because PostgreSQL cannot be reached, or does not answer within its deadline (deadlines.ts), is refused
// with a 503 (ServiceUnavailableError), not a 500: the client may retry, and the load balancer sees the same in /readyz.
import { ConnectionException } from '@mikro-orm/core';
import { ServiceUnavailableError } from '../errors/index.js';

/**
 * Error codes of a database that is not there: the socket's (refused, reset, timed out) and PostgreSQL's own for a
 * server shutting down or starting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now) or for a
 * statement it cancelled (57014 query_canceled: statement_timeout); class 08 (connection exception) is matched by prefix.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '57014']);

/**
 * What `pg` says, without a code, about a connection that broke or never came (its pool's connect timeout included, and
 * a connection ended for a silent server: deadlines.ts).
 */
const UNREACHABLE_MESSAGES = [/^Connection terminated/, /not queryable/, /timeout exceeded when trying to connect/i, /^Connection (?:ended|closed)/];

/** How far down `cause` chains to look (MikroORM and our own wrappers add a level each). */
const MAX_CAUSE_DEPTH = 5;

function isUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionException) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** The 503 for an error caused by the database being unreachable; undefined for any other error. */
export function databaseUnavailableError(error: unknown): ServiceUnavailableError | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth += 1) {
    if (isUnreachable(current)) return new ServiceUnavailableError(error);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
