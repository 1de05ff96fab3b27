import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import type { z } from 'zod';
import { dashboardPrincipalOf, requireDashboardToken } from '../../auth.js';
import type { MerchantAuthService } from '../dashboard-auth/dashboard-auth.service.js';
import type { ApiKey } from './api-key.entity.js';
import { apiKeyApi, type apiKeyResource } from './api-key.openapi.js';
import type { ApiKeyService } from './api-key.service.js';

/** The spec's API key resource, without the secret (shape checked against the documented schema). */
export function presentApiKey(key: ApiKey): z.input<typeof apiKeyResource> {
  return {
    id: key.id,
    name: key.name,
    public_key: key.publicKey,
    environment: key.environment,
    created_at: key.createdAt.toISOString(),
  };
}

/** /api/v1/merchant/api-keys (DT); methods and paths come from api-key.openapi.ts. */
export function apiKeyRoutes(auth: MerchantAuthService, apiKeys: ApiKeyService): Router {
  const router = Router();
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, apiKeyApi.list, dashboardToken, async (_req, res) => {
    const keys = await apiKeys.listActive(dashboardPrincipalOf(res));
    res.json({ data: keys.map(presentApiKey) });
  });

  mountApiRoute(router, apiKeyApi.create, dashboardToken, async (req, res) => {
    const { key, secretKey } = await apiKeys.create(dashboardPrincipalOf(res), req.body);
    const { created_at: createdAt, ...rest } = presentApiKey(key);
    res.status(201).json({ ...rest, secret_key: secretKey, created_at: createdAt });
  });

  mountApiRoute(router, apiKeyApi.revoke, dashboardToken, async (req, res) => {
    await apiKeys.revoke(dashboardPrincipalOf(res), String(req.params.id));
    res.status(204).end();
  });
  return router;
}
