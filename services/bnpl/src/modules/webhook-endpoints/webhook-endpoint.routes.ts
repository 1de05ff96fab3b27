import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { webhookEndpointApi } from './webhook-endpoint.openapi.js';
import { presentCreatedWebhookEndpoint, presentWebhookEndpoint, presentWebhookEndpointList } from './webhook-endpoint.presenter.js';
import type { WebhookEndpointService } from './webhook-endpoint.service.js';

/** /api/v1/merchant/webhooks (DT); methods and paths come from webhook-endpoint.openapi.ts. */
export function webhookEndpointRoutes(auth: MerchantAuthService, endpoints: WebhookEndpointService): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);
  const id = (params: Record<string, unknown>) => String(params.id);

  mountApiRoute(router, webhookEndpointApi.list, dashboardToken, async (_req, res) => {
    res.json(presentWebhookEndpointList(await endpoints.list(dashboardPrincipalOf(res))));
  });

  mountApiRoute(router, webhookEndpointApi.create, dashboardToken, async (req, res) => {
    const { endpoint, secret } = await endpoints.create(dashboardPrincipalOf(res), req.body);
    res.status(201).json(presentCreatedWebhookEndpoint(endpoint, secret));
  });

  mountApiRoute(router, webhookEndpointApi.get, dashboardToken, async (req, res) => {
    res.json(presentWebhookEndpoint(await endpoints.get(dashboardPrincipalOf(res), id(req.params))));
  });

  mountApiRoute(router, webhookEndpointApi.update, dashboardToken, async (req, res) => {
    res.json(presentWebhookEndpoint(await endpoints.update(dashboardPrincipalOf(res), id(req.params), req.body)));
  });

  mountApiRoute(router, webhookEndpointApi.delete, dashboardToken, async (req, res) => {
    await endpoints.delete(dashboardPrincipalOf(res), id(req.params));
    res.status(204).end();
  });
  return router;
}
