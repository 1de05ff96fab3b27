import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { listSettlementsQuery, settlementApi } from './settlement.openapi.js';
import { presentSettlement, presentSettlementWithLines } from './settlement.presenter.js';
import type { SettlementService } from './settlement.service.js';

/** /api/v1/merchant/settlements (DT); methods and paths come from settlement.openapi.ts. */
export function settlementRoutes(auth: MerchantAuthService, settlements: SettlementService): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);
  mountApiRoute(router, settlementApi.list, dashboardToken, async (req, res) => {
    const query = parseInput(listSettlementsQuery, req.query, { rootField: 'query' });
    const page = await settlements.list(dashboardPrincipalOf(res), query);
    res.json({ data: page.settlements.map(presentSettlement), next_cursor: page.nextCursor });
  });
  mountApiRoute(router, settlementApi.get, dashboardToken, async (req, res) => {
    const { settlement, lines } = await settlements.get(dashboardPrincipalOf(res), String(req.params.id));
    res.json(presentSettlementWithLines(settlement, lines));
  });
  return router;
}
