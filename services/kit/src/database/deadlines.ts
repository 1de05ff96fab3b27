// Every database statement has a deadline, so a database that stops answering (a partition, a stuck or stopped server:
// nothing refused, nothing reset) fails requests instead of hanging them: the server cancels a statement that runs too
// long, and the client ends a connection the server has gone silent on while it holds it. Both failures are 503s
// (unavailable.ts).
import type { Socket } from 'node:net';

/** How long one statement may take, at the server and at the client. */
export interface DatabaseDeadlines {
  /** PostgreSQL cancels a statement running longer (`statement_timeout`, lock waits included). */
  statementTimeoutMs: number;
  /**
   * The client ends a connection it has checked out of the pool when the server has sent nothing on it for this long:
   * the statement fails and the pool drops the connection. Longer than the server's own timeout, so a live server
   * cancels first (a clean error, the connection stays usable); this one is for a server that does not answer at all.
   * So a transaction must not wait this long on anything but its own statements (mail, HTTP: after the commit).
   * `pg`'s own `query_timeout` would do the same per statement, with a timer holding each statement and its rows: on
   * bnpl's export benchmark (a statement per 1,000 rows) the server grew by 220 MiB instead of 20 and ran a third
   * slower.
   */
  queryTimeoutMs: number;
}

/** serve, worker and seed: cancelled by the server after 10 s, given up by the client after 12 s of silence. */
export const DATABASE_DEADLINES: DatabaseDeadlines = { statementTimeoutMs: 10_000, queryTimeoutMs: 12_000 };

/**
 * TCP keepalive probes start after a pooled connection has been idle this long: a connection to a server that went
 * away without a word is noticed and dropped by the pool instead of handed to a request.
 */
export const DATABASE_KEEPALIVE_DELAY_MS = 10_000;

/** The `pg` Client options behind DatabaseDeadlines (MikroORM hands driverOptions to the `pg` Pool, which gives them to each Client). */
export function deadlineClientOptions(deadlines: DatabaseDeadlines | false): Record<string, number> {
  return deadlines ? { statement_timeout: deadlines.statementTimeoutMs } : {};
}

/** What guardCheckedOutConnections needs of a `pg` Pool and its clients. */
export interface GuardedPool {
  on(event: 'connect' | 'acquire', listener: (client: unknown) => void): unknown;
  on(event: 'release', listener: (error: unknown, client: unknown) => void): unknown;
}

/** A `pg` Client's socket (its Connection's stream: not in pg's types, stable across its versions). */
function socketOf(client: unknown): Socket {
  return (client as { connection: { stream: Socket } }).connection.stream;
}

/**
 * Arms the socket idle timeout of each connection while it is checked out (a statement, a transaction), and disarms it
 * when the connection goes back to the pool: a checked-out connection the server sends nothing on for `silenceMs` is
 * destroyed, which fails its statement ("Connection terminated") and makes the pool drop it.
 */
export function guardCheckedOutConnections(pool: GuardedPool, silenceMs: number): void {
  pool.on('connect', (client) => {
    const socket = socketOf(client);
    socket.on('timeout', () => socket.destroy());
  });
  pool.on('acquire', (client) => socketOf(client).setTimeout(silenceMs));
  pool.on('release', (_error, client) => socketOf(client).setTimeout(0));
}
