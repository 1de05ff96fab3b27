// The checkout's static files (plain browser JavaScript and CSS under ./static, checked in as they are served):
// the page's stylesheet and script under CHECKOUT_ASSETS_PREFIX, and widget.js at WIDGET_SCRIPT_PATH for merchants.
import { fileURLToPath } from 'node:url';

/**
 * The static directory next to this module: src/…/static when run from source (tests), dist/…/static when built
 * (the package's build copies the folder, since tsc copies only what it compiles).
 */
export const CHECKOUT_STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** The page's own files, with their content types (nothing else under the prefix is served). */
export const CHECKOUT_PAGE_FILES: Record<string, string> = {
  'checkout.css': 'text/css; charset=utf-8',
  'checkout.js': JAVASCRIPT,
};

/** The merchant-facing script's file and content type. */
export const WIDGET_SCRIPT_FILE = { name: 'widget.js', contentType: JAVASCRIPT } as const;

/**
 * widget.js is included by merchant pages at a fixed URL: cached for a day and revalidated by ETag after that, so a
 * fix reaches every shop within a day while repeat visitors load it from cache (README Decisions, "widget.js").
 */
export const WIDGET_SCRIPT_CACHE_CONTROL = 'public, max-age=86400';
/** The page's own files change only with a deploy of the service; five minutes, like crypto's hosted page. */
export const CHECKOUT_ASSET_CACHE_CONTROL = 'public, max-age=300';
