// The guard of /api/v1/merchant/* (spec "Authentication", DT): authenticates the dashboard token and keeps the caller on
// res.locals.
import { clientIpKey } from '@tributary/kit';
import type { RequestHandler, Response } from 'express';
import type { BnplPrincipal, MerchantAuthService } from './merchant-auth.service.js';

/** REST guard for /api/v1/merchant/* (DT): keeps the principal on res.locals. */
export function requireDashboardToken(auth: MerchantAuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await auth.authenticateDashboard(req.headers.authorization, clientIpKey(req));
    next();
  };
}

export function dashboardPrincipalOf(res: Response): BnplPrincipal & { kind: 'dashboard' } {
  const principal = res.locals.principal as (BnplPrincipal & { kind: 'dashboard' }) | undefined;
  if (!principal) throw new Error('dashboardPrincipalOf() used on a route without requireDashboardToken()');
  return principal;
}
