// The page's static files (plain browser JavaScript and CSS under ./static, checked in as they are served).
// Served outside /pay so loading them does not spend the payer's /pay/* rate-limit budget.
import { fileURLToPath } from 'node:url';

export const HOSTED_PAGE_ASSETS = '/pay-assets';

/**
 * The static directory next to this module: src/…/static when run from source (tests), dist/…/static when built
 * (the package's build copies the folder, since tsc copies only what it compiles).
 */
export const HOSTED_PAGE_STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

/** The only files served, with their content types. */
export const HOSTED_PAGE_FILES: Record<string, string> = {
  'hosted-page.js': 'text/javascript; charset=utf-8',
  'hosted-page.css': 'text/css; charset=utf-8',
};
