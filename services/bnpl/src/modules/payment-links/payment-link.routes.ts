import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { paymentLinkApi } from './payment-link.openapi.js';
import { presentPaymentLink } from './payment-link.presenter.js';
import type { PaymentLinkService } from './payment-link.service.js';
import { paymentLinkDraftFromBody } from './payment-link.validation.js';

/** /api/v1/merchant/payment-links (DT); methods and paths come from payment-link.openapi.ts. */
export function paymentLinkRoutes(auth: MerchantAuthService, links: PaymentLinkService): Router {
  const router = serviceRouter();
  const { publicBaseUrl } = links;
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, paymentLinkApi.create, dashboardToken, async (req, res) => {
    res.status(201).json(presentPaymentLink(await links.create(dashboardPrincipalOf(res), paymentLinkDraftFromBody(req.body)), publicBaseUrl));
  });
  mountApiRoute(router, paymentLinkApi.list, dashboardToken, async (_req, res) => {
    res.json({ data: (await links.list(dashboardPrincipalOf(res))).map((link) => presentPaymentLink(link, publicBaseUrl)) });
  });
  mountApiRoute(router, paymentLinkApi.get, dashboardToken, async (req, res) => {
    res.json(presentPaymentLink(await links.get(dashboardPrincipalOf(res), String(req.params.id)), publicBaseUrl));
  });
  mountApiRoute(router, paymentLinkApi.update, dashboardToken, async (req, res) => {
    res.json(presentPaymentLink(await links.update(dashboardPrincipalOf(res), String(req.params.id), paymentLinkDraftFromBody(req.body)), publicBaseUrl));
  });
  mountApiRoute(router, paymentLinkApi.delete, dashboardToken, async (req, res) => {
    await links.delete(dashboardPrincipalOf(res), String(req.params.id));
    res.status(204).end();
  });
  return router;
}
