// The workflow outbox: hands committed outbox entries to Temporal. After a commit it dispatches in the
// background (a create never waits on Temporal, and succeeds while Temporal is down); the worker's sweeper dispatches
// whatever that missed (Temporal unreachable, a crash between commit and dispatch) once Temporal answers again, and
// what a change left to it on purpose (a start nothing waits on, e.g. a widget session's expiry timer: the API
// process then makes no Temporal call for it). A signal dispatched after its commit takes its workflow's pending
// start along, first.
// Starts are idempotent by workflow id (REJECT_DUPLICATE; "already started" counts as done), so a start dispatched
// twice (after-commit racing a sweep) runs once; signals are delivered at least once.
// The after-commit dispatch sends the command its transaction just wrote, without reading the row back, and marks
// entries dispatched in one UPDATE per burst: under load the outbox adds no round trip per change to the database.
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { AfterCommit } from '../database/after-commit.js';
import type { Logger } from '../logging/index.js';
import { UNNAMED_SERVICE, workflowOutboxDispatches } from '../observability/metrics.js';
import { SERVICE_ATTRIBUTE, inSpan } from '../observability/tracing.js';
import type { OutboxCommand, OutboxEntryRef } from './enqueue.js';
import { WorkflowOutboxEntry } from './workflow-outbox.entity.js';

export interface WorkflowOutboxOptions {
  /** Root EntityManager of the service's database (orm.em); the outbox forks its own. */
  em: EntityManager;
  client: Client;
  logger?: Logger;
  /** The service whose outbox this is (the tributary_workflow_outbox_dispatches_total label); default UNNAMED_SERVICE. */
  service?: string;
  /** Time allowed for one Temporal call. Default 10 s. */
  rpcTimeoutMs?: number;
  /** Background dispatches in flight at most; beyond that, entries wait for the sweeper. Default 256. */
  maxInFlight?: number;
}

export interface OutboxDispatchResult {
  /** Entries Temporal now has (dispatched now, or found dispatched already). */
  dispatched: string[];
  /** Entries whose dispatch failed (Temporal unreachable...); the sweeper retries them. */
  failed: string[];
}

export interface SweepOptions {
  /** Only entries older than this (the after-commit dispatch's turn first). Default 10 s. */
  olderThanMs?: number;
  /** Entries per sweep. Default 100. */
  limit?: number;
}

export interface WorkflowOutbox {
  /**
   * After-commit work that dispatches `entries` in the background: it returns at once, whatever Temporal does.
   * Undefined when there is nothing to dispatch.
   */
  dispatchAfterCommit(entries: ReadonlyArray<OutboxEntryRef | undefined>): AfterCommit | undefined;
  /** Dispatches `ids` now and waits for Temporal (the sweeper, operator commands, tests). Never throws. */
  dispatch(ids: readonly string[]): Promise<OutboxDispatchResult>;
  /** Dispatches entries committed more than `olderThanMs` ago that are not dispatched yet. */
  sweep(options?: SweepOptions): Promise<OutboxDispatchResult>;
  /**
   * Sweeps batch after batch until no due entry is left: a backlog (a Temporal outage, a burst beyond maxInFlight)
   * drains at Temporal's pace instead of one batch per interval. Stops early when a batch dispatches nothing (Temporal
   * still away: the next interval tries again), after `maxBatches` (default 100), or once `signal` is aborted.
   */
  drain(options?: SweepOptions & { maxBatches?: number; signal?: AbortSignal }): Promise<OutboxDispatchResult>;
  /** Drains every `intervalMs` (default 5 s) until stopped. */
  startSweeper(options?: SweepOptions & { intervalMs?: number }): { stop(): Promise<void> };
  /** Resolves once every background dispatch started so far has settled (shutdown, operator commands, tests). */
  idle(): Promise<void>;
}

/** How often the worker's sweeper looks: also the latency of the starts left to it (with DEFAULT_MIN_AGE_MS). */
const DEFAULT_INTERVAL_MS = 5_000;
/** An after-commit dispatch's turn: entries younger than this are left to it (a double send is harmless, not free). */
const DEFAULT_MIN_AGE_MS = 10_000;
/** Workflows a dispatch sends to at once (a sweep's batch, an after-commit burst). */
const DISPATCH_CONCURRENCY = 16;
const DEFAULT_SWEEP_LIMIT = 100;
const DEFAULT_MAX_BATCHES = 100;

export function createWorkflowOutbox(options: WorkflowOutboxOptions): WorkflowOutbox {
  const { client, logger } = options;
  const service = options.service ?? UNNAMED_SERVICE;
  const rpcTimeoutMs = options.rpcTimeoutMs ?? 10_000;
  const maxInFlight = options.maxInFlight ?? 256;
  const inFlight = new Set<Promise<unknown>>();
  const health = temporalHealthLog(logger);

  /** One command to Temporal, in a span; "already started" and "no such workflow" (for a signal) count as done. */
  function send(entry: OutboxCommand): Promise<void> {
    return inSpan(`workflow-outbox ${entry.kind}`, { [SERVICE_ATTRIBUTE]: service, 'temporal.workflow_id': entry.workflowId }, () => sendNow(entry));
  }

  async function sendNow(entry: OutboxCommand): Promise<void> {
    await client.withDeadline(Date.now() + rpcTimeoutMs, async () => {
      if (entry.kind === 'start') {
        try {
          await client.workflow.start(entry.workflowType!, {
            taskQueue: entry.taskQueue!,
            workflowId: entry.workflowId,
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            args: entry.args,
            ...(entry.summary ? { staticSummary: entry.summary } : {}),
            ...(entry.details ? { staticDetails: entry.details } : {}),
          });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
        return;
      }
      try {
        await client.workflow.getHandle(entry.workflowId).signal(entry.signalName!, ...entry.args);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    });
  }

  const marks = dispatchMarks(options.em, logger);

  /**
   * Sends entries and records each outcome; never throws. Up to DISPATCH_CONCURRENCY workflows at a time (a sweep of a
   * backlog went at one Temporal round trip per entry). One workflow's entries go in their order, one after another,
   * and stop at the first failure: a signal sent after its start failed would find no workflow, count as done and be
   * lost; the rest waits for the next sweep.
   */
  async function dispatchEntries(entries: ReadonlyArray<{ id: string; command: OutboxCommand }>): Promise<OutboxDispatchResult> {
    const result: OutboxDispatchResult = { dispatched: [], failed: [] };
    const byWorkflow = new Map<string, Array<{ id: string; command: OutboxCommand }>>();
    for (const entry of entries) {
      const group = byWorkflow.get(entry.command.workflowId);
      if (group) group.push(entry);
      else byWorkflow.set(entry.command.workflowId, [entry]);
    }
    const groups = [...byWorkflow.values()];
    const sendGroup = async (group: ReadonlyArray<{ id: string; command: OutboxCommand }>) => {
      for (const [index, entry] of group.entries()) {
        if (!(await dispatchOne(entry, result))) {
          result.failed.push(...group.slice(index + 1).map(({ id }) => id));
          return;
        }
      }
    };
    const workers = Array.from({ length: Math.min(DISPATCH_CONCURRENCY, groups.length) }, async () => {
      for (let group = groups.shift(); group; group = groups.shift()) await sendGroup(group);
    });
    await Promise.all(workers);
    return result;
  }

  /** One entry: sent, its outcome marked and counted; true when Temporal has it. */
  async function dispatchOne({ id, command }: { id: string; command: OutboxCommand }, result: OutboxDispatchResult): Promise<boolean> {
    let failure: unknown;
    try {
      await send(command);
      health.ok();
    } catch (error) {
      failure = error ?? new Error('dispatch failed');
      health.failed(id, command, failure);
    }
    await marks.record(id, failure);
    const outcome = failure === undefined ? 'dispatched' : 'failed';
    workflowOutboxDispatches.inc({ service, kind: command.kind, outcome });
    result[outcome].push(id);
    return failure === undefined;
  }

  const asQueued = (entry: WorkflowOutboxEntry) => ({ id: entry.id, command: entry });

  const outbox: WorkflowOutbox = {
    dispatchAfterCommit(entries) {
      const queued = entries.filter((entry): entry is OutboxEntryRef => entry !== undefined);
      if (queued.length === 0) return undefined;
      return async () => {
        // Under a flood (Temporal slow or down) the rest waits for the sweeper instead of piling up in memory.
        if (inFlight.size >= maxInFlight) return;
        const running = dispatchQueued(queued).finally(() => inFlight.delete(running));
        inFlight.add(running);
      };
    },

    async dispatch(ids) {
      if (ids.length === 0) return { dispatched: [], failed: [] };
      const em = options.em.fork();
      try {
        // In commit order: one workflow's signals go after its start.
        const pending = await em.find(WorkflowOutboxEntry, { id: { $in: [...ids] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
        const result = await dispatchEntries(pending.filter((entry) => !entry.dispatchedAt).map(asQueued));
        for (const entry of pending) if (entry.dispatchedAt) result.dispatched.push(entry.id);
        const found = new Set(pending.map((entry) => entry.id));
        for (const id of ids) if (!found.has(id)) result.failed.push(id);
        return result;
      } catch (error) {
        logger?.warn({ err: error }, 'outbox dispatch failed; the sweeper retries');
        return { dispatched: [], failed: [...ids] };
      }
    },

    async sweep({ olderThanMs = DEFAULT_MIN_AGE_MS, limit = DEFAULT_SWEEP_LIMIT } = {}) {
      const em = options.em.fork();
      const due = await em.find(
        WorkflowOutboxEntry,
        { dispatchedAt: null, createdAt: { $lte: new Date(Date.now() - olderThanMs) } },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit },
      );
      if (due.length > 0) logger?.debug({ count: due.length }, 'dispatching outbox entries that were not dispatched after their commit');
      return dispatchEntries(due.map(asQueued));
    },

    async drain({ maxBatches = DEFAULT_MAX_BATCHES, signal, ...sweepOptions } = {}) {
      const limit = sweepOptions.limit ?? DEFAULT_SWEEP_LIMIT;
      const total: OutboxDispatchResult = { dispatched: [], failed: [] };
      for (let batch = 0; batch < maxBatches && !signal?.aborted; batch += 1) {
        const swept = await outbox.sweep({ ...sweepOptions, limit });
        total.dispatched.push(...swept.dispatched);
        total.failed.push(...swept.failed);
        const full = swept.dispatched.length + swept.failed.length >= limit;
        if (!full || swept.dispatched.length === 0) break;
      }
      return total;
    },

    startSweeper({ intervalMs = DEFAULT_INTERVAL_MS, ...sweepOptions } = {}) {
      let running: Promise<unknown> = Promise.resolve();
      let busy = false;
      // Shutdown ends a long drain between batches instead of waiting for the whole backlog.
      const stopping = new AbortController();
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        running = outbox
          .drain({ ...sweepOptions, signal: stopping.signal })
          .catch((error: unknown) => logger?.warn({ err: error }, 'outbox sweep failed'))
          .finally(() => {
            busy = false;
          });
      }, intervalMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          stopping.abort();
          await running;
        },
      };
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await marks.flushed();
    },
  };

  /**
   * The after-commit path: commands this process just wrote go straight to Temporal; the others are read first. A
   * signal's workflow may still wait for its start (left to the sweeper, or its dispatch failed): those earlier
   * entries go first, in their order, since a signal that found no workflow would count as done and be lost.
   */
  async function dispatchQueued(queued: readonly OutboxEntryRef[]): Promise<void> {
    const known = queued.filter((entry): entry is Required<OutboxEntryRef> => entry.command !== undefined);
    const unknown = queued.filter((entry) => entry.command === undefined).map((entry) => entry.id);
    const earlier = await pendingBeforeSignals(known);
    await dispatchEntries([...earlier.map(asQueued), ...known]);
    if (unknown.length > 0) await outbox.dispatch(unknown);
  }

  /** Undispatched entries of the workflows that `entries` signal, other than `entries` themselves, oldest first. */
  async function pendingBeforeSignals(entries: ReadonlyArray<Required<OutboxEntryRef>>): Promise<WorkflowOutboxEntry[]> {
    const signalled = [...new Set(entries.filter(({ command }) => command.kind === 'signal').map(({ command }) => command.workflowId))];
    if (signalled.length === 0) return [];
    try {
      const own = entries.map(({ id }) => id);
      return await options.em
        .fork()
        .find(WorkflowOutboxEntry, { dispatchedAt: null, workflowId: { $in: signalled }, id: { $nin: own } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    } catch (error) {
      logger?.warn({ err: error }, 'could not read the signalled workflows\' pending outbox entries; the sweeper dispatches them');
      return [];
    }
  }
  return outbox;
}

/**
 * Records dispatch outcomes. Successes are written together: every mark made while one UPDATE is in flight goes into
 * the next, so a burst of dispatches costs a few statements, not one each. A failure (rare: Temporal unreachable) is
 * written on its own with its error. A lost mark is harmless: the sweeper sends the entry again and Temporal answers
 * "already started".
 */
function dispatchMarks(root: EntityManager, logger: Logger | undefined) {
  let waiting: string[] = [];
  let writing: Promise<void> | undefined;

  async function write(ids: string[]): Promise<void> {
    await root
      .getConnection()
      .execute(
        `update "workflow_outbox" set "attempts" = "attempts" + 1, "dispatched_at" = coalesce("dispatched_at", clock_timestamp()), "last_error" = null where "id" = any(?::uuid[])`,
        [`{${ids.join(',')}}`],
      )
      .catch((error: unknown) => logger?.warn({ err: error, count: ids.length }, 'could not record outbox dispatches'));
  }

  function drain(): Promise<void> {
    writing ??= (async () => {
      while (waiting.length > 0) {
        const ids = waiting;
        waiting = [];
        await write(ids);
      }
      writing = undefined;
    })();
    return writing;
  }

  return {
    async record(id: string, error: unknown): Promise<void> {
      if (error === undefined) {
        waiting.push(id);
        await drain();
        return;
      }
      await root
        .getConnection()
        .execute(`update "workflow_outbox" set "attempts" = "attempts" + 1, "last_error" = ? where "id" = ?`, [error instanceof Error ? error.message : String(error), id])
        .catch((failure: unknown) => logger?.warn({ err: failure, entryId: id }, 'could not record an outbox dispatch'));
    },
    /** Resolves once every mark made so far is written. */
    async flushed(): Promise<void> {
      while (writing) await writing;
    },
  };
}

/** Logs an unreachable Temporal once when dispatches start failing and once when they succeed again, not per entry. */
function temporalHealthLog(logger: Logger | undefined) {
  let failing = false;
  return {
    ok() {
      if (!failing) return;
      failing = false;
      logger?.info('outbox dispatch works again');
    },
    failed(id: string, command: OutboxCommand, error: unknown) {
      const fields = { err: error, entryId: id, workflowId: command.workflowId, kind: command.kind };
      if (failing) {
        logger?.debug(fields, 'outbox dispatch failed');
        return;
      }
      failing = true;
      logger?.warn(fields, 'outbox dispatch failed (Temporal unreachable?); entries stay queued and the worker sweeper dispatches them');
    },
  };
}
