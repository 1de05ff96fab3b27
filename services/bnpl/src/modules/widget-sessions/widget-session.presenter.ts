// The spec's widget session bodies: the create answer (session_token, checkout_url, expires_at) and the read body
// (the spec's fields plus order_reference, livemode and loan_id; never the shopper's contact details or the merchant's
// URLs, since a public key is not a secret).
import type { z } from 'zod';
import { CHECKOUT_PAGE_PREFIX, WIDGET_SESSIONS_PATH } from '../../api-paths.js';
import { effectiveStatus } from './session-status-engine.js';
import type { WidgetSession } from './widget-session.entity.js';
import type { createdWidgetSessionResource, widgetSessionResource } from './widget-session.openapi.js';

/** The shopper's hosted checkout page of a session: `<base>/checkout/<session_token>`. */
export function checkoutUrl(baseUrl: string, sessionToken: string): string {
  return `${baseUrl}${CHECKOUT_PAGE_PREFIX}/${sessionToken}`;
}

/** The API path of one session (the 201's Location). */
export function sessionPath(sessionToken: string): string {
  return `${WIDGET_SESSIONS_PATH}/${sessionToken}`;
}

export function presentCreatedSession(session: Pick<WidgetSession, 'token' | 'expiresAt'>, baseUrl: string): z.input<typeof createdWidgetSessionResource> {
  return {
    session_token: session.token,
    checkout_url: checkoutUrl(baseUrl, session.token),
    expires_at: session.expiresAt.toISOString(),
  };
}

/** The read body; `now` decides whether a past deadline already reads expired. The merchant must be loaded. */
export function presentSession(session: WidgetSession, now: Date, loanId: string | null): z.input<typeof widgetSessionResource> {
  return {
    session_token: session.token,
    amount_cents: session.amountCents,
    currency: session.currency,
    merchant: { id: session.merchant.id, name: session.merchant.name },
    status: effectiveStatus(session.toState(), now),
    expires_at: session.expiresAt.toISOString(),
    order_reference: session.orderReference,
    livemode: session.livemode,
    loan_id: loanId,
  };
}
