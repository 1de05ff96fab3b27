import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardLoginApi } from './dashboard-login.openapi.js';
import { presentLoginStarted, presentLoginVerified } from './dashboard-login.presenter.js';
import type { DashboardLoginService } from './dashboard-login.service.js';
import { dashboardPrincipalOf, requireDashboardToken } from './merchant-auth.guard.js';
import type { MerchantAuthService } from './merchant-auth.service.js';

/** /api/v1/merchant/auth/* (login and verify without credentials, logout with DT); paths from dashboard-login.openapi.ts. */
export function dashboardLoginRoutes(auth: MerchantAuthService, login: DashboardLoginService): Router {
  const router = serviceRouter();

  mountApiRoute(router, dashboardLoginApi.login, async (req, res) => {
    res.json(presentLoginStarted(await login.login(req.body)));
  });

  mountApiRoute(router, dashboardLoginApi.verify, async (req, res) => {
    res.json(presentLoginVerified(await login.verify(req.body)));
  });

  mountApiRoute(router, dashboardLoginApi.logout, requireDashboardToken(auth), async (_req, res) => {
    await login.logout(dashboardPrincipalOf(res));
    res.status(204).end();
  });
  return router;
}
