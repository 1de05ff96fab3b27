// Widget sessions: the checkout sessions merchant backends create (KEYS) and shoppers complete at checkout_url; the
// merchant API (create, read, cancel), the expiry workflow's activity and the dashboard's GraphQL view.
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
export { SESSION_TOKEN_FORMAT, SESSION_TOKEN_PATTERN, SESSION_TOKEN_PREFIX, generateSessionToken } from './session-token.js';
export { WidgetSessionRepository, type SessionViewer } from './widget-session.repository.js';
export {
  CUSTOMER_EMAIL_MAX,
  CUSTOMER_PHONE_MAX,
  ORDER_REFERENCE_MAX,
  PURCHASE_DESCRIPTION_MAX,
  REDIRECT_URL_MAX,
  WIDGET_SESSION_LIFETIME_MINUTES,
} from './widget-session.limits.js';
export { E164_PATTERN, LOCAL_REDIRECT_HOSTS, SESSION_CREATE_MESSAGES, createWidgetSessionBody, redirectUrlProblem, validateNewWidgetSession, type NewWidgetSession } from './widget-session.validation.js';
export {
  RECENT_SESSIONS_DEFAULT,
  RECENT_SESSIONS_MAX,
  WidgetSessionService,
  type CreatedWidgetSession,
  type SessionCreator,
  type SessionExpiry,
  type WidgetSessionCreation,
  type PaymentLinkSessionSource,
  type WidgetSessionServiceOptions,
} from './widget-session.service.js';
export { checkoutUrl, presentCreatedSession, presentSession, sessionPath } from './widget-session.presenter.js';
export { widgetSessionApi } from './widget-session.openapi.js';
export { sessionReadLimit, sessionReadLimitFields, type SessionReadLimitConfig } from './widget-session.read-limit.js';
export { livemodeOf, widgetSessionRoutes, type WidgetSessionRouteOptions } from './widget-session.routes.js';
export { widgetSessionResolvers } from './widget-session.resolvers.js';
export { createWidgetSessionActivities, type WidgetSessionActivitiesDeps } from './widget-session.activities.js';

export const widgetSessionEntities = [WidgetSessionSchema];
