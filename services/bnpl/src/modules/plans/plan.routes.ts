import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { planApi } from './plan.openapi.js';
import { presentConfiguredPlan, presentPlanOverview } from './plan.presenter.js';
import type { PlanService } from './plan.service.js';

/** /api/v1/merchant/plans (DT); methods and paths come from plan.openapi.ts. */
export function planRoutes(auth: MerchantAuthService, plans: PlanService): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, planApi.list, dashboardToken, async (_req, res) => {
    res.json(presentPlanOverview(await plans.overview(dashboardPrincipalOf(res).merchantId)));
  });

  mountApiRoute(router, planApi.update, dashboardToken, async (req, res) => {
    const configured = await plans.setEnabledFromBody(dashboardPrincipalOf(res).merchantId, String(req.params.plan_id), req.body);
    res.json(presentConfiguredPlan(configured));
  });
  return router;
}
