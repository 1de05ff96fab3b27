import { defineEntity, p } from '@mikro-orm/core';
import type { InferEntity } from '@mikro-orm/core';

/** `start` starts a workflow; `signal` signals a running one. */
export const WORKFLOW_OUTBOX_KINDS = ['start', 'signal'] as const;
export type WorkflowOutboxKind = (typeof WORKFLOW_OUTBOX_KINDS)[number];

/**
 * One Temporal command a transaction asked for: a workflow start or a signal, committed together with the rows that
 * caused it (the transactional outbox), dispatched after the commit and swept if that was missed. Each service owns this
 * table in its own database (created by the kit's migrations).
 */
export const WorkflowOutboxEntry = defineEntity({
  name: 'WorkflowOutboxEntry',
  tableName: 'workflow_outbox',
  // The constraints and indexes of CreateWorkflowOutbox (migration.ts), so a service's schema diff stays empty.
  indexes: [
    // The sweeper's query: entries not dispatched yet, oldest first.
    {
      name: 'workflow_outbox_pending_idx',
      expression: 'create index "workflow_outbox_pending_idx" on "workflow_outbox" ("created_at") where "dispatched_at" is null',
    },
  ],
  uniques: [
    // A workflow is started once: a second enqueue of the same start is the same entry (idempotent by workflow id).
    {
      name: 'workflow_outbox_start_unique',
      expression: `create unique index "workflow_outbox_start_unique" on "workflow_outbox" ("workflow_id") where "kind" = 'start'`,
    },
  ],
  checks: [
    {
      name: 'workflow_outbox_command_check',
      expression: `("kind" = 'start' and "workflow_type" is not null and "task_queue" is not null) or ("kind" = 'signal' and "signal_name" is not null)`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    kind: p.enum(WORKFLOW_OUTBOX_KINDS),
    workflowId: p.string().length(512),
    /** Registered workflow type (starts). */
    workflowType: p.string().length(128).nullable(),
    /** Task queue the workflow runs on (starts). */
    taskQueue: p.string().length(128).nullable(),
    /** Signal name (signals). */
    signalName: p.string().length(128).nullable(),
    /** The workflow's (or the signal's) arguments, as JSON. */
    args: p.json<unknown[]>(),
    /** What an operator reads for the workflow in the Temporal UI (starts; never secrets or a customer's own text). */
    summary: p.text().nullable(),
    details: p.text().nullable(),
    /** Dispatch attempts so far (after-commit dispatch and sweeps). */
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Set once Temporal has the command (started, or found already started / finished). */
    dispatchedAt: p.datetime().nullable(),
  },
});
export type WorkflowOutboxEntry = InferEntity<typeof WorkflowOutboxEntry>;
