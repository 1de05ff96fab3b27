// GET /pay/{slug} (the hosted payer page), GET /pay/{slug}/qr.svg (its QR code) and the page's static files under
// /pay-assets/. One path-less middleware rather than Express routes: this is a page for humans, not part of the
// merchant API the OpenAPI document (and its route-drift check) describes.
import { NotFoundError } from '@tributary/kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import QRCode from 'qrcode';
import { HOSTED_PAGE_PREFIX } from '../../api-paths.js';
import { presentPublicPaymentRequest, type PaymentRequestService } from '../payment-requests/index.js';
import { HOSTED_PAGE_ASSETS, HOSTED_PAGE_FILES, HOSTED_PAGE_STATIC_DIR } from './hosted-page.assets.js';
import { renderHostedPage, renderNotFoundPage } from './hosted-page.view.js';
import { paymentUri } from './payment-uri.js';

/**
 * Nothing but same-origin script, style, images and fetch (the status poll); no inline code, no framing, no forms.
 * The QR code is an <img> of a same-origin SVG.
 */
export const HOSTED_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function secure(res: Response, cache: 'no-store' | 'static'): void {
  res.setHeader('Content-Security-Policy', HOSTED_PAGE_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', cache === 'no-store' ? 'no-store' : 'public, max-age=300');
}

/** Whether the client asked for JSON rather than a page (then errors keep the API's `{"message"}` shape). */
function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

const PAGE = new RegExp(`^${HOSTED_PAGE_PREFIX}/([^/]+)/?$`);
const QR_CODE = new RegExp(`^${HOSTED_PAGE_PREFIX}/([^/]+)/qr\\.svg$`);
/** The paths PAGE and QR_CODE match, in Express notation: the slug is the `slug` parameter (capabilities.ts). */
export const HOSTED_PAGE_SLUG_ROUTES = [`${HOSTED_PAGE_PREFIX}/:slug{/}`, `${HOSTED_PAGE_PREFIX}/:slug/qr.svg`] as const;
const ASSET = new RegExp(`^${HOSTED_PAGE_ASSETS}/([^/]+)$`);

export function hostedPageRoutes(paymentRequests: PaymentRequestService): RequestHandler {
  const load = async (slug: string) => {
    const request = await paymentRequests.findPublic(slug);
    const body = presentPublicPaymentRequest(request, paymentRequests.clock());
    const uri = paymentUri({ network: request.network, chain: body.chain, address: body.address, amountOutstanding: request.amountOutstanding ?? null });
    return { body, uri, network: { madeOn: request.network, current: paymentRequests.currentNetwork() } };
  };

  /** The page; an unknown slug is a 404 page for browsers and the API's `{"message"}` for JSON clients. */
  const servePage = async (req: Request, res: Response, slug: string): Promise<void> => {
    try {
      const { body, uri, network } = await load(slug);
      secure(res, 'no-store');
      res.type('text/html').send(renderHostedPage({ request: body, network, qrPath: `${HOSTED_PAGE_PREFIX}/${encodeURIComponent(body.id)}/qr.svg`, paymentUri: uri, now: paymentRequests.clock() }));
    } catch (error) {
      if (!(error instanceof NotFoundError) || wantsJson(req)) throw error;
      secure(res, 'no-store');
      res.status(404).type('text/html').send(renderNotFoundPage());
    }
  };

  const serveQrCode = async (res: Response, slug: string): Promise<void> => {
    const { uri } = await load(slug);
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    secure(res, 'no-store');
    res.type('image/svg+xml').send(svg);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    try {
      const page = PAGE.exec(req.path)?.[1];
      if (page !== undefined) return await servePage(req, res, page);
      const qrCode = QR_CODE.exec(req.path)?.[1];
      if (qrCode !== undefined) return await serveQrCode(res, qrCode);
      const asset = ASSET.exec(req.path)?.[1];
      if (asset !== undefined && Object.hasOwn(HOSTED_PAGE_FILES, asset)) return serveAsset(res, asset, next);
      next();
    } catch (error) {
      next(error);
    }
  };
}

function serveAsset(res: Response, file: string, next: NextFunction): void {
  secure(res, 'static');
  res.sendFile(file, { root: HOSTED_PAGE_STATIC_DIR, headers: { 'Content-Type': HOSTED_PAGE_FILES[file] } }, (error) => {
    if (error) next(error);
  });
}
