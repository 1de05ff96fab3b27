// The URL prefixes of the photos spec and the service's own pages; every route takes its prefix from here.

/** The REST API. */
export const REST_BASE = '/api/v1';
/** The human API documentation page. */
export const DOCS_PATH = '/docs';
