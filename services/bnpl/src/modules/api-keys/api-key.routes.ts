import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { apiKeyApi } from './api-key.openapi.js';
import { presentApiKeyList, presentCreatedApiKey } from './api-key.presenter.js';
import type { ApiKeyService } from './api-key.service.js';

/** /api/v1/merchant/api-keys (DT); methods and paths come from api-key.openapi.ts. */
export function apiKeyRoutes(auth: MerchantAuthService, apiKeys: ApiKeyService): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, apiKeyApi.list, dashboardToken, async (_req, res) => {
    res.json(presentApiKeyList(await apiKeys.listActive(dashboardPrincipalOf(res))));
  });

  mountApiRoute(router, apiKeyApi.create, dashboardToken, async (req, res) => {
    const { key, secretKey } = await apiKeys.create(dashboardPrincipalOf(res), req.body);
    res.status(201).json(presentCreatedApiKey(key, secretKey));
  });

  mountApiRoute(router, apiKeyApi.revoke, dashboardToken, async (req, res) => {
    await apiKeys.revoke(dashboardPrincipalOf(res), String(req.params.id));
    res.status(204).end();
  });
  return router;
}
