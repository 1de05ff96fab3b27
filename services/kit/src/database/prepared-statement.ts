// A hot statement as a PostgreSQL named prepared statement: each pooled connection parses and plans it once, then
// only binds and executes it. MikroORM's `execute` instead formats the values into the SQL text in JavaScript and
// PostgreSQL parses and plans that text on every call; for a create that is one statement (bnpl's widget session and
// its outbox start) those two costs were a large part of the request (issue 8 §9: 0.42 → 0.36 ms of service CPU per
// create, and less PostgreSQL work on the same cores). Inside a transaction the statement goes through MikroORM as
// before: the transaction's connection is MikroORM's (kysely's) and offers no named statements. Either way the same
// SQL runs with the same values, errors are MikroORM's exceptions, and the statement is logged (a traced request's SQL
// span, debug mode's line) as MikroORM logs its own.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface PreparedStatement {
  /** Derived from the text: pg prepares a name once per connection and refuses one name for two texts. */
  readonly name: string;
  /** The statement with `?` placeholders (MikroORM's form, used inside a transaction). */
  readonly sql: string;
  /** The same with `$1…$n` (PostgreSQL's form, for the named statement). */
  readonly text: string;
}

/** The pg pool's query, as far as a named statement needs it. */
interface NamedStatementPool {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Numbers the `?` placeholders of `sql` as `$1…$n`, leaving quoted literals and identifiers alone. MikroORM's `??`
 * (an identifier placeholder) has no PostgreSQL form: refused.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let count = 0;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < sql.length; i += 1) {
    const char = sql[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === '?') {
      if (sql[i + 1] === '?') throw new Error('a prepared statement cannot hold an identifier placeholder (??)');
      count += 1;
      out += `$${count}`;
    } else {
      out += char;
    }
  }
  if (quote) throw new Error('a prepared statement with an unterminated quote');
  return out;
}

/** `sql` (with `?` placeholders) as a named prepared statement. Make it once per statement, not per call. */
export function preparedStatement(sql: string): PreparedStatement {
  const text = numberPlaceholders(sql);
  return { name: `tributary_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, sql, text };
}

/**
 * Runs `statement` with `params` (primitives, dates, null: what pg and MikroORM both send the same way) and returns its
 * rows: as the named statement on the pool outside a transaction, through MikroORM in `em`'s transaction otherwise.
 * Failures are MikroORM's exceptions (UniqueConstraintViolationException...) either way.
 */
export async function executePrepared<T>(em: EntityManager, statement: PreparedStatement, params: readonly unknown[]): Promise<T[]> {
  const connection = em.getConnection();
  const transaction = em.getTransactionContext();
  try {
    if (transaction) return await connection.execute<T[]>(statement.sql, [...params], 'all', transaction);
    return await runNamed<T>(em, statement, params);
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}

/** The named statement on the pool, logged as MikroORM logs its own (the SQL span, debug mode's line; never values). */
async function runNamed<T>(em: EntityManager, statement: PreparedStatement, params: readonly unknown[]): Promise<T[]> {
  const pool = (await em.getConnection().getNativeClient()) as unknown as NamedStatementPool;
  const logger = em.config.getLogger();
  const started = Date.now();
  try {
    const { rows } = await pool.query({ name: statement.name, text: statement.text, values: params });
    logger.logQuery({ query: statement.sql, took: Date.now() - started, results: rows.length, level: 'info' });
    return rows as T[];
  } catch (error) {
    logger.logQuery({ query: statement.sql, took: Date.now() - started, level: 'error' });
    throw error;
  }
}
