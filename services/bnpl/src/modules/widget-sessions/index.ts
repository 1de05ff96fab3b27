// Widget sessions: the checkout sessions merchant backends create (KEYS) and shoppers complete at checkout_url.
import { WidgetSessionSchema } from './widget-session.entity.js';

export { WidgetSession, WidgetSessionSchema } from './widget-session.entity.js';
export {
  OPEN_SESSION_STATUSES,
  SESSION_STATUSES,
  applyAuthorization,
  applyCancel,
  applyEligibility,
  applyExpiry,
  effectiveStatus,
  isOpen,
  isPastDeadline,
  type SessionRefusal,
  type SessionState,
  type SessionStatus,
  type SessionTransition,
} from './session-status-engine.js';
export { widgetSessionExpirySignal, widgetSessionExpiryStart, type ExpiringSession } from './widget-session-expiry.commands.js';
export { SESSION_TOKEN_PATTERN, SESSION_TOKEN_PREFIX, generateSessionToken } from './session-token.js';

export const widgetSessionEntities = [WidgetSessionSchema];
