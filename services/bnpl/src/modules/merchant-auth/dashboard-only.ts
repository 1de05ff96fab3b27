// What the spec reserves for the dashboard token (sales, settlements, refunds, plans, webhooks, payment links, API
// keys): REST mounts those routes behind requireDashboardToken, and GraphQL, which also accepts an API key pair, asks
// the domain services to refuse the pair with this one rule, so both doors agree.
import { ForbiddenError } from '@tributary/kit';
import type { BnplPrincipal } from './merchant-auth.service.js';

/**
 * The mode a principal may read: an API key pair reads only its own environment's data (a test key no live session or
 * key, a live key no test one); the dashboard token reads both, each object saying its mode. Undefined = both.
 */
export function readableLivemode(principal: BnplPrincipal): boolean | undefined {
  return principal.kind === 'api_key' ? principal.livemode : undefined;
}

/** The merchant id of a dashboard principal; an API key pair → ForbiddenError naming what needs the dashboard. */
export function dashboardMerchantId(principal: BnplPrincipal, what: string): string {
  if (principal.kind !== 'dashboard') throw new ForbiddenError(`${what} are managed with a dashboard token.`);
  return principal.merchantId;
}
