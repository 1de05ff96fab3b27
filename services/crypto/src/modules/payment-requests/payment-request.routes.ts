import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireApiKey, type AccountService } from '../accounts/index.js';
import { IDEMPOTENCY_KEY_HEADER } from './payment-request.idempotency.js';
import { paymentRequestApi } from './payment-request.openapi.js';
import { merchantPath, presentPaymentRequest, presentPaymentRequestPage, presentPublicPaymentRequest } from './payment-request.presenter.js';
import type { PaymentRequestService } from './payment-request.service.js';
import { draftFromBody, listQueryFromSearchParams } from './payment-request.validation.js';

/** Merchant routes (/api/merchant/v1/payment-requests…) and the public payer endpoint (/api/pay/{slug}). */
export function paymentRequestRoutes(accounts: AccountService, paymentRequests: PaymentRequestService): Router {
  const router = serviceRouter();
  const auth = requireApiKey(accounts);

  mountApiRoute(router, paymentRequestApi.create, auth, async (req, res) => {
    const { paymentRequest, replayed } = await paymentRequests.create(principalOf(res), draftFromBody(req.body), { idempotencyKey: req.get(IDEMPOTENCY_KEY_HEADER) });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).location(merchantPath(paymentRequest)).json({ payment_request: presentPaymentRequest(paymentRequest, paymentRequests.clock()) });
  });

  mountApiRoute(router, paymentRequestApi.list, auth, async (req, res) => {
    const page = await paymentRequests.listViews(principalOf(res), listQueryFromSearchParams(req.query));
    res.json(presentPaymentRequestPage(page, paymentRequests.clock()));
  });

  mountApiRoute(router, paymentRequestApi.get, auth, async (req, res) => {
    const request = await paymentRequests.get(principalOf(res), String(req.params.id));
    res.json({ payment_request: presentPaymentRequest(request, paymentRequests.clock()) });
  });

  mountApiRoute(router, paymentRequestApi.cancel, auth, async (req, res) => {
    const request = await paymentRequests.cancel(principalOf(res), String(req.params.id));
    res.json({ payment_request: presentPaymentRequest(request, paymentRequests.clock()) });
  });

  mountApiRoute(router, paymentRequestApi.public, async (req, res) => {
    const request = await paymentRequests.findPublic(String(req.params.slug));
    res.json(presentPublicPaymentRequest(request, paymentRequests.clock()));
  });

  return router;
}
