// GET /checkout/{token} (the page; opening it decides eligibility), POST /checkout/{token} (confirm, an urlencoded
// form post), the page's static files under CHECKOUT_ASSETS_PREFIX and GET /widget.js for merchant pages. One
// path-less middleware, as crypto's hosted page: these are pages for people, not part of the merchant API that the
// OpenAPI document (and its route-drift check) describes.
import { NotFoundError, PayloadTooLargeError, bodyParserErrorToDomain, safeHref, type OtherBodyRoute } from '@tributary/kit';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { CHECKOUT_ASSETS_PREFIX, CHECKOUT_PAGE_PREFIX, WIDGET_SCRIPT_PATH } from '../../api-paths.js';
import { CHECKOUT_ASSET_CACHE_CONTROL, CHECKOUT_PAGE_FILES, CHECKOUT_STATIC_DIR, WIDGET_SCRIPT_CACHE_CONTROL, WIDGET_SCRIPT_FILE } from './checkout.assets.js';
import { EMBED_QUERY_PARAM, FETCH_DEST_HEADER, NO_SESSION_CONTENT_SECURITY_POLICY, checkoutPageContentSecurityPolicy, merchantOrigins, requestEmbedMode, type EmbedMode } from './checkout.embedding.js';
import type { CheckoutPage } from './checkout.pages.js';
import type { CheckoutService, ConfirmOutcome } from './checkout.service.js';
import { renderCheckoutPage, renderNotFoundPage } from './checkout.view.js';

export const CHECKOUT_FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
/** The kit reads only JSON bodies; the confirm form's urlencoded body is read here (composeServiceApp otherBodyRoutes). */
export const CHECKOUT_FORM_BODY_ROUTE: OtherBodyRoute = { path: `${CHECKOUT_PAGE_PREFIX}/*`, mediaTypes: [CHECKOUT_FORM_MEDIA_TYPE] };
/** The form has four short fields; anything bigger is not a shopper's form. */
export const CHECKOUT_FORM_BODY_LIMIT = '8kb';

/** More form fields than this is not the checkout's form. */
const CHECKOUT_FORM_PARAMETER_LIMIT = 20;

/** body-parser's refusals of a form as the kit's errors (413 for too big or too many fields), never a 500. */
function formBodyError(error: unknown): unknown {
  if ((error as { type?: unknown }).type === 'parameters.too.many') return new PayloadTooLargeError(`${CHECKOUT_FORM_PARAMETER_LIMIT} fields`, { cause: error });
  return bodyParserErrorToDomain(error, CHECKOUT_FORM_BODY_LIMIT) ?? error;
}

/** HTTP status of each confirm outcome (README Decisions, "Checkout confirm"). */
export const CONFIRM_STATUS: Record<ConfirmOutcome['kind'], number> = { booked: 200, invalid: 422, declined: 200, refused: 409 };

const PAGE = new RegExp(`^${CHECKOUT_PAGE_PREFIX}/([^/]+)/?$`);
/** The paths PAGE matches, in Express notation: the session token is the `token` parameter (capabilities.ts). */
export const CHECKOUT_PAGE_ROUTE = `${CHECKOUT_PAGE_PREFIX}/:token{/}`;
const ASSET = new RegExp(`^${CHECKOUT_ASSETS_PREFIX}/([^/]+)$`);

/** Headers of every page: its CSP, no MIME sniffing, no Referer (the URL holds the session token), never cached. */
export function securePage(res: Response, contentSecurityPolicy: string): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
}

/** How the request embeds the page; the answer depends on Sec-Fetch-Dest, so it varies with it. */
function embedModeOf(req: Request, res: Response): EmbedMode {
  res.vary(FETCH_DEST_HEADER);
  return requestEmbedMode(req.query[EMBED_QUERY_PARAM], req.get(FETCH_DEST_HEADER));
}

function sendPage(res: Response, page: CheckoutPage, options: { embed: EmbedMode; now: Date; status?: number }): void {
  const origins = merchantOrigins(page.summary);
  securePage(res, checkoutPageContentSecurityPolicy(origins));
  res.status(options.status ?? 200).type('text/html').send(renderCheckoutPage(page, { embed: options.embed, messageTarget: origins.messageTarget, now: options.now }));
}

/** Whether the client asked for JSON rather than a page (then a 404 keeps the API's error envelope). */
function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

function sendNotFound(req: Request, res: Response, error: unknown): void {
  if (!(error instanceof NotFoundError) || wantsJson(req)) throw error;
  securePage(res, NO_SESSION_CONTENT_SECURITY_POLICY);
  res.status(404).type('text/html').send(renderNotFoundPage());
}

export function checkoutRoutes(checkout: CheckoutService): RequestHandler {
  const readForm = express.urlencoded({ extended: false, limit: CHECKOUT_FORM_BODY_LIMIT, parameterLimit: CHECKOUT_FORM_PARAMETER_LIMIT, type: CHECKOUT_FORM_MEDIA_TYPE });

  const openPage = async (req: Request, res: Response, token: string): Promise<void> => {
    try {
      const embed = embedModeOf(req, res);
      sendPage(res, await checkout.open(token), { embed, now: checkout.clock() });
    } catch (error) {
      sendNotFound(req, res, error);
    }
  };

  /**
   * Confirm. Booked in redirect mode: 303 to success_url (a page with the link when success_url is not http(s));
   * booked in an iframe (widget.js's or the merchant's own) or modal: the success page, whose script posts
   * service.success to the merchant.
   */
  const confirm = async (req: Request, res: Response, token: string): Promise<void> => {
    const embed = embedModeOf(req, res);
    let outcome: ConfirmOutcome;
    try {
      outcome = await checkout.confirm(token, req.body);
    } catch (error) {
      return sendNotFound(req, res, error);
    }
    const successUrl = safeHref(outcome.page.summary.successUrl);
    if (outcome.kind === 'booked' && embed === null && successUrl !== null) {
      securePage(res, checkoutPageContentSecurityPolicy(merchantOrigins(outcome.page.summary)));
      res.redirect(303, successUrl);
      return;
    }
    sendPage(res, outcome.page, { embed, now: checkout.clock(), status: CONFIRM_STATUS[outcome.kind] });
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.method === 'GET' || req.method === 'HEAD') {
        const page = PAGE.exec(req.path)?.[1];
        if (page !== undefined) return await openPage(req, res, page);
        if (req.path === WIDGET_SCRIPT_PATH) return serveFile(res, WIDGET_SCRIPT_FILE.name, WIDGET_SCRIPT_FILE.contentType, WIDGET_SCRIPT_CACHE_CONTROL, next);
        const asset = ASSET.exec(req.path)?.[1];
        if (asset !== undefined && Object.hasOwn(CHECKOUT_PAGE_FILES, asset)) return serveFile(res, asset, CHECKOUT_PAGE_FILES[asset]!, CHECKOUT_ASSET_CACHE_CONTROL, next);
      }
      if (req.method === 'POST') {
        const page = PAGE.exec(req.path)?.[1];
        if (page !== undefined) {
          await new Promise<void>((resolve, reject) => readForm(req, res, (error?: unknown) => (error ? reject(formBodyError(error)) : resolve())));
          return await confirm(req, res, page);
        }
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A static file. widget.js is loaded by merchant pages on other origins: Cross-Origin-Resource-Policy lets pages
 * that require it (COEP) load it too.
 */
function serveFile(res: Response, file: string, contentType: string, cacheControl: string, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.sendFile(file, { root: CHECKOUT_STATIC_DIR, cacheControl: false, headers: { 'Content-Type': contentType, 'Cache-Control': cacheControl } }, (error) => {
    if (error) next(error);
  });
}
