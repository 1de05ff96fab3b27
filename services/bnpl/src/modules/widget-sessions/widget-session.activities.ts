// Activities of the widget session expiry workflow (contract: WidgetSessionExpiryActivities in @tributary/workflows).
// Built by a factory with the session domain injected, so the worker and the tests share one path:
// WidgetSessionService.expireIfDue, which stores `expired` under a row lock.
import { NotFoundError } from '@tributary/kit';
import type { ExpireWidgetSessionResult, WidgetSessionExpiryActivities } from '@tributary/workflows';
import type { WidgetSessionService } from './widget-session.service.js';

export interface WidgetSessionActivitiesDeps {
  /** The session domain (the worker runs each activity in its own ORM context). */
  sessions: WidgetSessionService;
}

export function createWidgetSessionActivities(deps: WidgetSessionActivitiesDeps): WidgetSessionExpiryActivities {
  return {
    async expireWidgetSessionIfDue({ sessionId }): Promise<ExpireWidgetSessionResult> {
      try {
        const { outcome, session } = await deps.sessions.expireIfDue(sessionId);
        return { outcome, status: session.status, expiresAt: session.expiresAt.toISOString() };
      } catch (error) {
        // The session is gone (its merchant was deleted): nothing will ever expire; retrying would not help.
        if (error instanceof NotFoundError) return { outcome: 'final', status: 'not_found', expiresAt: null };
        throw error;
      }
    },
  };
}
