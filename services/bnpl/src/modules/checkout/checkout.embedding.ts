// How checkout is embedded in a merchant's page (README "Checkout for merchants"): widget.js opens checkout_url with
// `?embed=iframe|modal`, and a merchant's own iframe of checkout_url as returned is the inline iframe too (the browser
// says so in Sec-Fetch-Dest). The page then talks to its parent window only by postMessage, only to the merchant's
// origin (success_url's), and only lets the merchant's origins (success_url's and cancel_url's) frame it.
import { urlOrigin } from '@tributary/kit';

export const EMBED_QUERY_PARAM = 'embed';
export const EMBED_MODES = ['iframe', 'modal'] as const;
/** How the page was opened: in widget.js's inline iframe, its modal, or (null) directly in the window (redirect). */
export type EmbedMode = (typeof EMBED_MODES)[number] | null;

export function parseEmbedMode(value: unknown): EmbedMode {
  return typeof value === 'string' && (EMBED_MODES as readonly string[]).includes(value) ? (value as EmbedMode) : null;
}

/** The Fetch Metadata request header naming where the response goes: `iframe` for a page loaded inside a frame. */
export const FETCH_DEST_HEADER = 'Sec-Fetch-Dest';
/** Sec-Fetch-Dest values of a navigation inside a frame (`frame`: the legacy <frame> element). */
const FRAMED_FETCH_DESTS: readonly string[] = ['iframe', 'frame'];

/**
 * A request's embed mode: `?embed=` as widget.js sets it; else `iframe` when the browser loads the page inside a frame
 * (a merchant framing checkout_url as returned), so confirming posts service.success instead of loading success_url
 * in the frame; else null (the full window). Browsers without Fetch Metadata are caught by the page script.
 */
export function requestEmbedMode(embedParam: unknown, fetchDest: string | undefined): EmbedMode {
  return parseEmbedMode(embedParam) ?? (fetchDest !== undefined && FRAMED_FETCH_DESTS.includes(fetchDest) ? 'iframe' : null);
}

/**
 * The `type` of every message the page posts to its parent (the same strings are in static/checkout.js and
 * static/widget.js; test/checkout-page.test.ts checks they agree).
 */
export const CHECKOUT_MESSAGES = {
  /** Checkout completed and the loan is booked. */
  success: 'service.success',
  /** The shopper pressed Escape inside the modal: widget.js closes it. */
  close: 'service.close',
  /** The page's height changed: widget.js resizes the inline iframe. */
  resize: 'service.resize',
} as const;

/** The `service.success` message (README "Embedding checkout"). */
export interface CheckoutSuccessMessage {
  type: typeof CHECKOUT_MESSAGES.success;
  session_token: string;
  loan_id: string;
  loan_number: string;
  /** The session's order_reference (the loan's purchase_reference). */
  purchase_reference: string;
  /** Where widget.js sends the shopper when the merchant passed no onSuccess callback. */
  success_url: string;
}

/** The origins that may frame the page, and that its messages go to. */
export interface MerchantOrigins {
  /** success_url's origin: the only target origin of the page's messages; null when success_url is not http(s). */
  messageTarget: string | null;
  /** success_url's and cancel_url's origins (distinct): the CSP frame-ancestors. */
  frameAncestors: string[];
}

export function merchantOrigins(session: { successUrl: string; cancelUrl: string }): MerchantOrigins {
  const messageTarget = urlOrigin(session.successUrl);
  const frameAncestors = [...new Set([messageTarget, urlOrigin(session.cancelUrl)].filter((origin): origin is string => origin !== null))];
  return { messageTarget, frameAncestors };
}

/** Directives every checkout response shares: same-origin script and style only, nothing inline, nothing third-party. */
const BASE_DIRECTIVES = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "base-uri 'none'"];

/**
 * The CSP of a session's pages. The form posts to the page itself and the confirm's 303 goes to success_url
 * (form-action covers redirects after a form submission); only the merchant's origins may frame the page.
 */
export function checkoutPageContentSecurityPolicy(origins: MerchantOrigins): string {
  const formAction = ["'self'", ...(origins.messageTarget ? [origins.messageTarget] : [])].join(' ');
  const ancestors = origins.frameAncestors.length > 0 ? origins.frameAncestors.join(' ') : "'none'";
  return [...BASE_DIRECTIVES, `form-action ${formAction}`, `frame-ancestors ${ancestors}`].join('; ');
}

/** The CSP of a page with no session (unknown token): no form, no framing. */
export const NO_SESSION_CONTENT_SECURITY_POLICY = [...BASE_DIRECTIVES, "form-action 'none'", "frame-ancestors 'none'"].join('; ');
