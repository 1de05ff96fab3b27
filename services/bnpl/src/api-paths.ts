// The URL prefixes of the bnpl spec and the service's own pages; every route takes its prefix from here.

/** The REST API. */
export const REST_BASE = '/api/v1';
/** The dashboard's routes (DT). */
export const MERCHANT_PREFIX = `${REST_BASE}/merchant`;
/** The human API documentation page. */
export const DOCS_PATH = '/docs';
