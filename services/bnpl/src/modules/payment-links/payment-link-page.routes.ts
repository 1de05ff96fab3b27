// A payment link's public pages: GET /l/{slug} (title, price, "Pay in installments" or sold out), POST /l/{slug} (starts
// a checkout for the link's price: 303 to its checkout_url) and GET /l/{slug}/done (checkout's success_url for the
// link). Like the checkout pages, one path-less middleware: pages for people, not part of the merchant API's document.
import { NotFoundError, type OtherBodyRoute } from '@tributary/kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PAYMENT_LINK_PAGE_PREFIX } from '../../api-paths.js';
import { CHECKOUT_FORM_MEDIA_TYPE, NO_SESSION_CONTENT_SECURITY_POLICY, checkoutPageContentSecurityPolicy, securePage } from '../checkout/index.js';
import { renderPaymentLinkDonePage, renderPaymentLinkNotFoundPage, renderPaymentLinkPage } from './payment-link-page.view.js';
import type { PaymentLinkService } from './payment-link.service.js';

/** The start button posts an empty form; the kit lets that media type through to this route. */
export const PAYMENT_LINK_FORM_BODY_ROUTE: OtherBodyRoute = { path: `${PAYMENT_LINK_PAGE_PREFIX}/*`, mediaTypes: [CHECKOUT_FORM_MEDIA_TYPE] };

/** A sold-out link's page: the link exists but sells no more (410 Gone); a deleted or unknown one is 404. */
export const SOLD_OUT_STATUS = 410;

const PAGE = new RegExp(`^${PAYMENT_LINK_PAGE_PREFIX}/([^/]+)/?$`);
const DONE = new RegExp(`^${PAYMENT_LINK_PAGE_PREFIX}/([^/]+)/done/?$`);

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

export function paymentLinkPageRoutes(links: PaymentLinkService): RequestHandler {
  const show = (res: Response, slug: string) =>
    sendOrNotFound(res, async () => {
      const page = await links.page(slug);
      return { status: page.isRedeemable ? 200 : SOLD_OUT_STATUS, html: renderPaymentLinkPage(page) };
    });
  const done = (res: Response, slug: string) => sendOrNotFound(res, async () => ({ status: 200, html: renderPaymentLinkDonePage(await links.page(slug)) }));
  const start = async (res: Response, slug: string): Promise<void> => {
    let started: Awaited<ReturnType<PaymentLinkService['startCheckout']>>;
    try {
      started = await links.startCheckout(slug);
    } catch (error) {
      return sendOrNotFound(res, () => Promise.reject(error));
    }
    if (started.kind === 'sold_out') return sendOrNotFound(res, async () => ({ status: SOLD_OUT_STATUS, html: renderPaymentLinkPage(started.page) }));
    securePage(res, PAGE_CONTENT_SECURITY_POLICY);
    res.redirect(303, started.checkoutUrl);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const slug = PAGE.exec(req.path)?.[1];
      const doneSlug = DONE.exec(req.path)?.[1];
      if ((req.method === 'GET' || req.method === 'HEAD') && slug !== undefined) return await show(res, slug);
      if ((req.method === 'GET' || req.method === 'HEAD') && doneSlug !== undefined) return await done(res, doneSlug);
      if (req.method === 'POST' && slug !== undefined) return await start(res, slug);
      next();
    } catch (error) {
      next(error);
    }
  };
}
