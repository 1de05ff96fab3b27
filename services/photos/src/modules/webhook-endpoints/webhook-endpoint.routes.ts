import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { TEAM_ADMIN_ROLES, principalOf, requireRole, requireToken, type AuthService } from '../auth/index.js';
import { webhookEndpointApi } from './webhook-endpoint.openapi.js';
import { presentCreatedWebhookEndpoint, presentWebhookEndpoint, presentWebhookEndpointList } from './webhook-endpoint.presenter.js';
import type { WebhookEndpointService } from './webhook-endpoint.service.js';
import { createSettingsOf, createWebhookEndpointBody, updateSettingsOf, updateWebhookEndpointBody } from './webhook-endpoint.validation.js';

/** /api/v1/webhook-endpoints (owner or admin in an office session); paths come from webhook-endpoint.openapi.ts. */
export function webhookEndpointRoutes(auth: AuthService, endpoints: WebhookEndpointService): Router {
  const router = serviceRouter();
  const token = [requireToken(auth), requireRole(...TEAM_ADMIN_ROLES)];
  const id = (params: Record<string, unknown>) => String(params.endpoint);

  mountApiRoute(router, webhookEndpointApi.list, ...token, async (_req, res) => {
    res.json(presentWebhookEndpointList(await endpoints.list(principalOf(res))));
  });
  mountApiRoute(router, webhookEndpointApi.create, ...token, async (req, res) => {
    const { endpoint, secret } = await endpoints.create(principalOf(res), createSettingsOf(parseInput(createWebhookEndpointBody, req.body)));
    res.status(201).json(presentCreatedWebhookEndpoint(endpoint, secret));
  });
  mountApiRoute(router, webhookEndpointApi.get, ...token, async (req, res) => {
    res.json({ data: presentWebhookEndpoint(await endpoints.get(principalOf(res), id(req.params))) });
  });
  mountApiRoute(router, webhookEndpointApi.update, ...token, async (req, res) => {
    const changes = updateSettingsOf(parseInput(updateWebhookEndpointBody, req.body));
    res.json({ data: presentWebhookEndpoint(await endpoints.update(principalOf(res), id(req.params), changes)) });
  });
  mountApiRoute(router, webhookEndpointApi.delete, ...token, async (req, res) => {
    await endpoints.delete(principalOf(res), id(req.params));
    res.status(204).end();
  });
  return router;
}
