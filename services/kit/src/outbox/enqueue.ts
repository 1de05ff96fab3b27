// Adding commands to the workflow outbox, always inside the caller's transaction: they commit (or roll back) with the
// change that caused them. Nothing reaches Temporal here; the outbox dispatches after the commit or its sweeper later.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared, preparedStatement, type PreparedStatement } from '../database/prepared-statement.js';

/** A workflow the transaction wants started. */
export interface WorkflowStartCommand {
  /** Registered workflow type (WORKFLOW_TYPES). */
  workflowType: string;
  /** From the workflow-id builders in @tributary/workflows; a start is enqueued (and run) once per id. */
  workflowId: string;
  /** TASK_QUEUES[service]. */
  taskQueue: string;
  args: readonly unknown[];
  /** Shown to operators in the Temporal UI. */
  summary?: string;
  details?: string;
}

/** A signal the transaction wants sent to a workflow. */
export interface WorkflowSignalCommand {
  workflowId: string;
  signal: string;
  args?: readonly unknown[];
}

/** An outbox entry's command as Temporal receives it (the columns `send` reads). */
export interface OutboxCommand {
  kind: 'start' | 'signal';
  workflowId: string;
  workflowType?: string | null;
  taskQueue?: string | null;
  signalName?: string | null;
  args: unknown[];
  summary?: string | null;
  details?: string | null;
}

/**
 * A committed-with-the-change outbox entry (what the outbox dispatches after the commit): its id and, when this
 * transaction wrote it, its command, so the after-commit dispatch sends it without reading the row back. A start that
 * was already queued (a retried transaction) carries none: the committed row is what gets sent.
 */
export interface OutboxEntryRef {
  id: string;
  command?: OutboxCommand;
}

function requireTransaction(tx: EntityManager, what: string): void {
  // Outside a transaction the command would commit alone, before (or without) the change it belongs to.
  if (!tx.isInTransaction()) throw new Error(`${what} must run inside the transaction of the change that causes it`);
}

/** The outbox row of a start: columns, and the values `startValues` fills in that order. */
const START_COLUMNS = `"workflow_outbox" ("id", "kind", "workflow_id", "workflow_type", "task_queue", "args", "summary", "details", "created_at")`;
const START_VALUES = `values (?, 'start', ?, ?, ?, ?::jsonb, ?, ?, clock_timestamp())`;

function startValues(command: WorkflowStartCommand, argsJson: string): unknown[] {
  return [randomUUID(), command.workflowId, command.workflowType, command.taskQueue, argsJson, command.summary ?? null, command.details ?? null];
}

/** The entry a transaction just wrote, with its command as the row holds it (the args as JSON: a Date becomes a string). */
function queuedStart(id: string, command: WorkflowStartCommand, argsJson: string): OutboxEntryRef {
  const { workflowId, workflowType, taskQueue, summary, details } = command;
  return { id, command: { kind: 'start', workflowId, workflowType, taskQueue, args: JSON.parse(argsJson) as unknown[], summary: summary ?? null, details: details ?? null } };
}

/**
 * Enqueues a workflow start. Idempotent by workflow id: enqueueing the same start again (a retried transaction, a
 * replayed create) returns the existing entry.
 */
export async function enqueueWorkflowStart(tx: EntityManager, command: WorkflowStartCommand): Promise<OutboxEntryRef> {
  requireTransaction(tx, 'enqueueWorkflowStart');
  const connection = tx.getConnection();
  const context = tx.getTransactionContext();
  const argsJson = JSON.stringify(command.args);
  const inserted = await connection.execute<Array<{ id: string }>>(
    `insert into ${START_COLUMNS} ${START_VALUES} on conflict ("workflow_id") where "kind" = 'start' do nothing returning "id"`,
    startValues(command, argsJson),
    'all',
    context,
  );
  if (inserted[0]) return queuedStart(inserted[0].id, command, argsJson);
  const [existing] = await connection.execute<Array<{ id: string }>>(
    `select "id" from "workflow_outbox" where "workflow_id" = ? and "kind" = 'start'`,
    [command.workflowId],
    'all',
    context,
  );
  return { id: existing!.id };
}

/**
 * One INSERT with `?` placeholders (compileEntityInsert's, or `em.createQueryBuilder(Entity).insert(data).toQuery()`).
 * Keep the text the same for every row of a kind: each text becomes a prepared statement.
 */
export interface RowInsert {
  sql: string;
  params: readonly unknown[];
}

/**
 * Inserts a new row and enqueues the workflow start it causes in ONE statement (a data-modifying CTE): atomic without
 * a transaction, and one round trip instead of BEGIN, two INSERTs and COMMIT, for a create whose only other write is
 * that start (the hot create paths). Inside a transaction it joins it. The workflow id must be new (derived from the
 * new row): an id already queued fails the whole statement (a unique violation), so the row is never left without its
 * start.
 */
export async function insertWithWorkflowStart(em: EntityManager, row: RowInsert, command: WorkflowStartCommand): Promise<OutboxEntryRef> {
  const argsJson = JSON.stringify(command.args);
  const [inserted] = await executePrepared<{ id: string }>(em, insertWithStartStatement(row.sql), [...row.params, ...startValues(command, argsJson)]);
  return queuedStart(inserted!.id, command, argsJson);
}

/** The combined statement per row INSERT, made once (a hot create runs it with new values each time). */
const insertWithStartStatements = new Map<string, PreparedStatement>();

/** More distinct texts than any service has: a caller building a new text per row would only churn the cache. */
const MAX_INSERT_WITH_START_STATEMENTS = 64;

function insertWithStartStatement(rowSql: string): PreparedStatement {
  let statement = insertWithStartStatements.get(rowSql);
  if (!statement) {
    if (insertWithStartStatements.size >= MAX_INSERT_WITH_START_STATEMENTS) insertWithStartStatements.clear();
    statement = preparedStatement(`with "new_row" as (${rowSql}) insert into ${START_COLUMNS} ${START_VALUES} returning "id"`);
    insertWithStartStatements.set(rowSql, statement);
  }
  return statement;
}

/** Enqueues a signal (delivered at least once; a workflow that has finished or never started does not get it). */
export async function enqueueWorkflowSignal(tx: EntityManager, command: WorkflowSignalCommand): Promise<OutboxEntryRef> {
  requireTransaction(tx, 'enqueueWorkflowSignal');
  const id = randomUUID();
  const argsJson = JSON.stringify(command.args ?? []);
  await tx.getConnection().execute(
    `insert into "workflow_outbox" ("id", "kind", "workflow_id", "signal_name", "args", "created_at") values (?, 'signal', ?, ?, ?::jsonb, clock_timestamp())`,
    [id, command.workflowId, command.signal, argsJson],
    'run',
    tx.getTransactionContext(),
  );
  return { id, command: { kind: 'signal', workflowId: command.workflowId, signalName: command.signal, args: JSON.parse(argsJson) as unknown[] } };
}
