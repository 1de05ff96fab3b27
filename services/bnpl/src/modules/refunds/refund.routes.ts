import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, ValidationError, mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { refundApi } from './refund.openapi.js';
import { presentRefund } from './refund.presenter.js';
import type { RefundService } from './refund.service.js';
import { refundFiltersFromQuery } from './refund.validation.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** /api/v1/merchant/refunds (DT); methods and paths come from refund.openapi.ts. */
export function refundRoutes(auth: MerchantAuthService, refunds: RefundService): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, refundApi.create, dashboardToken, async (req, res) => {
    if (!isRecord(req.body)) throw new ValidationError({ body: ['Must be a JSON object.'] });
    const { refund, replayed } = await refunds.create(dashboardPrincipalOf(res), bodyDraft(req.body), { idempotencyKey: req.get(IDEMPOTENCY_KEY_HEADER) });
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.status(201).json(presentRefund(refund));
  });
  mountApiRoute(router, refundApi.list, dashboardToken, async (req, res) => {
    const page = await refunds.list(dashboardPrincipalOf(res), refundFiltersFromQuery(req.query));
    res.json({ data: page.refunds.map(presentRefund), next_cursor: page.nextCursor });
  });
  mountApiRoute(router, refundApi.get, dashboardToken, async (req, res) => {
    res.json(presentRefund(await refunds.get(dashboardPrincipalOf(res), String(req.params.id))));
  });
  return router;
}

/** The body under the domain's names (other fields are ignored, as on every bnpl create). */
function bodyDraft(body: Record<string, unknown>) {
  return { loanId: body['loan_id'], amountCents: body['amount_cents'], reason: body['reason'] };
}
