// What the spec reserves for the dashboard token (sales, settlements, refunds, plans, webhooks, payment links, API
// keys): REST mounts those routes behind requireDashboardToken, and GraphQL, which also accepts an API key pair, asks
// the domain services to refuse the pair with this one rule, so both doors agree.
import { ForbiddenError } from '@tributary/kit';
import type { BnplPrincipal } from './merchant-auth.service.js';

/** The merchant id of a dashboard principal; an API key pair → ForbiddenError naming what needs the dashboard. */
export function dashboardMerchantId(principal: BnplPrincipal, what: string): string {
  if (principal.kind !== 'dashboard') throw new ForbiddenError(`${what} are managed with a dashboard token.`);
  return principal.merchantId;
}
