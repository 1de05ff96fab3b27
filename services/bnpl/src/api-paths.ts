// The URL prefixes of the bnpl spec and the service's own pages; every route takes its prefix from here.

/** The REST API. */
export const REST_BASE = '/api/v1';
/** The dashboard's routes (DT). */
export const MERCHANT_PREFIX = `${REST_BASE}/merchant`;
/** The human API documentation page. */
export const DOCS_PATH = '/docs';
/** Widget sessions (KEYS to create, PK to read and cancel). */
export const WIDGET_SESSIONS_PATH = `${REST_BASE}/widget/sessions`;
/** The shopper's hosted checkout page: `${CHECKOUT_PAGE_PREFIX}/<session_token>` is the session's checkout_url. */
export const CHECKOUT_PAGE_PREFIX = '/checkout';
/** The script a merchant page includes to open checkout in a modal or an inline iframe. */
export const WIDGET_SCRIPT_PATH = '/widget.js';
/** A payment link's public page: `${PAYMENT_LINK_PAGE_PREFIX}/<slug>` is its public_url. */
export const PAYMENT_LINK_PAGE_PREFIX = '/l';
/** The checkout page's own static files (stylesheet and progressive-enhancement script). */
export const CHECKOUT_ASSETS_PREFIX = '/checkout-assets';
