// The commands the session domain gives the widget session expiry workflow, as workflow outbox entries enqueued in the
// transaction that changed the session: start it when a session is created; end it early with the `authorized`
// (checkout completed) or `cancelled` signal. A workflow never hears of a rolled-back change, and a command committed
// while Temporal is down is dispatched when it is back.
import type { WorkflowSignalCommand, WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, widgetSessionWorkflowId, type WidgetSessionExpiryWorkflowInput, type WidgetSessionSignalName } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

/** What the commands need to know of a session (never its token: workflow ids, inputs and summaries are not secret). */
export interface ExpiringSession {
  id: string;
  expiresAt: Date;
  amountCents: number;
  currency: string;
}

/** Start of the session's expiry workflow, id `widget-session-<session id>`, on the bnpl task queue: once per session. */
export function widgetSessionExpiryStart(session: ExpiringSession): WorkflowStartCommand {
  const input: WidgetSessionExpiryWorkflowInput = { sessionId: session.id, expiresAt: session.expiresAt.toISOString() };
  const expiresAt = session.expiresAt.toISOString();
  return {
    workflowType: WORKFLOW_TYPES.widgetSessionExpiry,
    workflowId: widgetSessionWorkflowId(session.id),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    // What an operator sees in the Temporal UI: amount and deadline, never the shopper's details.
    summary: `Widget session ${session.id}: ${session.amountCents} ${session.currency} (minor units), expires ${expiresAt}`,
    details: [`- session: ${session.id}`, `- amount_cents: ${session.amountCents} ${session.currency}`, `- expires at: ${expiresAt}`].join('\n'),
  };
}

/**
 * Ends the workflow early: WIDGET_SESSION_SIGNALS.authorized or .cancelled; a workflow already over ignores it. A
 * session whose workflow was started under the token-named id of earlier releases does not get it, which is harmless:
 * that workflow wakes at the session's deadline (30 minutes at most) and its activity finds the session final.
 */
export function widgetSessionExpirySignal(sessionId: string, signal: WidgetSessionSignalName): WorkflowSignalCommand {
  return { workflowId: widgetSessionWorkflowId(sessionId), signal };
}
