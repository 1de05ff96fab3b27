import { defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { WidgetSessionExpiryActivities } from '../activities.js';
import { WIDGET_SESSION_SIGNALS } from '../constants.js';
import type { WidgetSessionExpiryWorkflowInput, WidgetSessionExpiryWorkflowResult } from '../types.js';
import { expireAtDeadline } from './deadline-expiry.js';

export const widgetSessionAuthorizedSignal = defineSignal(WIDGET_SESSION_SIGNALS.authorized);
export const widgetSessionCancelledSignal = defineSignal(WIDGET_SESSION_SIGNALS.cancelled);

/**
 * One workflow per bnpl widget session (id `widget-session-<session id>`): a durable timer until the session's expires_at
 * (measured in workflow time), then the activity stores `expired` if the session is still open (initialized, eligible,
 * ineligible). The `authorized` (checkout completed) and `cancelled` (merchant cancelled) signals end it early without
 * touching the session. A lost signal is harmless: at the deadline the activity finds the session final.
 */
export async function widgetSessionExpiryWorkflow(input: WidgetSessionExpiryWorkflowInput): Promise<WidgetSessionExpiryWorkflowResult> {
  const { expireWidgetSessionIfDue } = proxyActivities<WidgetSessionExpiryActivities>({
    startToCloseTimeout: '1 minute',
    // Only infrastructure errors (database down) throw; "nothing to expire" is a result.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  let endedBy: 'authorized' | 'cancelled' | null = null;
  setHandler(widgetSessionAuthorizedSignal, () => {
    endedBy ??= 'authorized';
  });
  setHandler(widgetSessionCancelledSignal, () => {
    endedBy ??= 'cancelled';
  });

  return expireAtDeadline({
    expiresAt: input.expiresAt,
    endedBy: () => endedBy,
    check: () => expireWidgetSessionIfDue({ sessionId: input.sessionId }),
    logFields: { what: 'widget session', sessionId: input.sessionId },
  });
}
