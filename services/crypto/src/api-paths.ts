// The URL prefixes of the crypto spec ("Conventions") and the service's own pages; every route and limiter takes its
// prefix from here.

/** Merchant API (bearer API key). */
export const MERCHANT_API_PREFIX = '/api/merchant/v1';
/** The public payer endpoint (no credentials; the slug is the capability). */
export const PUBLIC_API_PREFIX = '/api/pay';
/** The hosted payer page. */
export const HOSTED_PAGE_PREFIX = '/pay';
/** The human API documentation page. */
export const DOCS_PATH = '/docs';
