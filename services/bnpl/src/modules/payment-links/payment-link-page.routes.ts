// A payment link's public pages: GET /l/{slug} (title, price, "Pay in installments" or sold out), POST /l/{slug} (starts
// a checkout for the link's price: 303 to its checkout_url) and GET /l/{slug}/done (checkout's success_url for the
// link). Pages for people on a page router, not part of the merchant API's document. Starting a checkout is limited
// (rate-limits.ts): a refused start gets a page saying to retry, with Retry-After.
import { NotFoundError, RateLimitedError, pageRouter, type OtherBodyRoute } from '@tributary/kit';
import type { ErrorRequestHandler, RequestHandler, Response, Router } from 'express';
import { PAYMENT_LINK_PAGE_PREFIX } from '../../api-paths.js';
import { CHECKOUT_FORM_MEDIA_TYPE, NO_SESSION_CONTENT_SECURITY_POLICY, checkoutPageContentSecurityPolicy, securePage } from '../checkout/index.js';
import { renderPaymentLinkBusyPage, renderPaymentLinkDonePage, renderPaymentLinkNotFoundPage, renderPaymentLinkPage } from './payment-link-page.view.js';
import type { PaymentLinkService } from './payment-link.service.js';

/** The start button posts an empty form; the kit lets that media type through to this route. */
export const PAYMENT_LINK_FORM_BODY_ROUTE: OtherBodyRoute = { path: `${PAYMENT_LINK_PAGE_PREFIX}/*`, mediaTypes: [CHECKOUT_FORM_MEDIA_TYPE] };

/** A sold-out link's page: the link exists but sells no more (410 Gone); a deleted or unknown one is 404. */
export const SOLD_OUT_STATUS = 410;

const PAGE_PATH = `${PAYMENT_LINK_PAGE_PREFIX}/:slug`;
const DONE_PATH = `${PAYMENT_LINK_PAGE_PREFIX}/:slug/done`;

/** The page posts to itself and goes on to checkout on this origin; nobody may frame it. */
const PAGE_CONTENT_SECURITY_POLICY = checkoutPageContentSecurityPolicy({ messageTarget: null, frameAncestors: [] });

async function sendOrNotFound(res: Response, render: () => Promise<{ status: number; html: string }>): Promise<void> {
  try {
    const { status, html } = await render();
    securePage(res, PAGE_CONTENT_SECURITY_POLICY);
    res.status(status).type('text/html').send(html);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    securePage(res, NO_SESSION_CONTENT_SECURITY_POLICY);
    res.status(404).type('text/html').send(renderPaymentLinkNotFoundPage());
  }
}

/** A start refused by a limit: the busy page, 429 with the limit's Retry-After; other errors pass on. */
const busyPage: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (!(error instanceof RateLimitedError)) return next(error);
  securePage(res, PAGE_CONTENT_SECURITY_POLICY);
  res.status(429).set('Retry-After', String(error.retryAfterSeconds)).type('text/html').send(renderPaymentLinkBusyPage());
};

/** The pages; `startLimits` run before a checkout starts (per client and per link). */
export function paymentLinkPageRoutes(links: PaymentLinkService, startLimits: RequestHandler[] = []): Router {
  const router = pageRouter();
  const slugOf = (params: Record<string, unknown>) => String(params.slug);

  router.get(PAGE_PATH, async (req, res) => {
    await sendOrNotFound(res, async () => {
      const page = await links.page(slugOf(req.params));
      return { status: page.isRedeemable ? 200 : SOLD_OUT_STATUS, html: renderPaymentLinkPage(page) };
    });
  });

  router.get(DONE_PATH, async (req, res) => {
    await sendOrNotFound(res, async () => ({ status: 200, html: renderPaymentLinkDonePage(await links.page(slugOf(req.params))) }));
  });

  router.post(PAGE_PATH, ...startLimits, async (req, res) => {
    let started: Awaited<ReturnType<PaymentLinkService['startCheckout']>>;
    try {
      started = await links.startCheckout(slugOf(req.params));
    } catch (error) {
      return sendOrNotFound(res, () => Promise.reject(error));
    }
    if (started.kind === 'sold_out') return sendOrNotFound(res, async () => ({ status: SOLD_OUT_STATUS, html: renderPaymentLinkPage(started.page) }));
    securePage(res, PAGE_CONTENT_SECURITY_POLICY);
    res.redirect(303, started.checkoutUrl);
  });

  router.use(PAYMENT_LINK_PAGE_PREFIX, busyPage);
  return router;
}
