import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import { principalOf, requireApiKey } from '../../auth.js';
import type { AccountService } from '../accounts/account.service.js';
import { IDEMPOTENCY_KEY_HEADER } from './payment-request.idempotency.js';
import { paymentRequestApi } from './payment-request.openapi.js';
import { merchantPath, presentPaymentRequest, presentPublicPaymentRequest } from './payment-request.presenter.js';
import type { PaymentRequestService } from './payment-request.service.js';

/** Merchant routes (/api/merchant/v1/payment-requests…) and the public payer endpoint (/api/pay/{slug}). */
export function paymentRequestRoutes(accounts: () => AccountService, service: () => PaymentRequestService): Router {
  const router = Router();
  const auth = requireApiKey(accounts);

  mountApiRoute(router, paymentRequestApi.create, auth, async (req, res) => {
    const { paymentRequest, replayed } = await service().createIdempotent(principalOf(res), req.body, req.get(IDEMPOTENCY_KEY_HEADER));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).location(merchantPath(paymentRequest)).json({ payment_request: presentPaymentRequest(paymentRequest, service().clock()) });
  });

  mountApiRoute(router, paymentRequestApi.list, auth, async (req, res) => {
    const page = await service().list(principalOf(res), req.query);
    const now = service().clock();
    res.json({ data: page.items.map((item) => presentPaymentRequest(item, now)), current_page: page.page, per_page: page.perPage, total: page.total });
  });

  mountApiRoute(router, paymentRequestApi.get, auth, async (req, res) => {
    const request = await service().get(principalOf(res), String(req.params.id));
    res.json({ payment_request: presentPaymentRequest(request, service().clock()) });
  });

  mountApiRoute(router, paymentRequestApi.cancel, auth, async (req, res) => {
    const request = await service().cancel(principalOf(res), String(req.params.id));
    res.json({ payment_request: presentPaymentRequest(request, service().clock()) });
  });

  mountApiRoute(router, paymentRequestApi.public, async (req, res) => {
    const request = await service().findPublic(String(req.params.slug));
    res.json(presentPublicPaymentRequest(request, service().clock()));
  });

  return router;
}
