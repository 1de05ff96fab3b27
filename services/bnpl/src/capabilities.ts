// The capability tokens in bnpl's paths (kit http/capabilities.ts): the widget session token opens the shopper's
// checkout (and, with the merchant's public key, the session), so the access log and the traces keep only `ws_abcd…`.
// A payment link's slug (`/l/{slug}`) is no capability: the link is published by design.
import type { CapabilityToken } from '@tributary/kit';
import { CHECKOUT_PAGE_ROUTE } from './modules/checkout/index.js';
import { SESSION_TOKEN_FORMAT, widgetSessionApi } from './modules/widget-sessions/index.js';

export const BNPL_CAPABILITIES: readonly CapabilityToken[] = [
  {
    name: 'widget session token',
    format: SESSION_TOKEN_FORMAT,
    routes: [widgetSessionApi.get.path, widgetSessionApi.cancel.path, CHECKOUT_PAGE_ROUTE].map((path) => ({ path, param: 'token' })),
  },
];
