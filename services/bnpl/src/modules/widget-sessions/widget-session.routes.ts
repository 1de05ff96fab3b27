import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, mountApiRoute, serviceRouter } from '@tributary/kit';
import type { RequestHandler, Response, Router } from 'express';
import { apiKeyPrincipalOf, publicKeyCallerOf, requireApiKeyPair, requirePublicKey, type MerchantAuthService } from '../merchant-auth/index.js';
import { presentCreatedSession, presentSession, sessionPath } from './widget-session.presenter.js';
import { widgetSessionApi } from './widget-session.openapi.js';
import type { WidgetSessionService } from './widget-session.service.js';
import type { SessionViewer } from './widget-session.repository.js';

export interface WidgetSessionRouteOptions {
  auth: MerchantAuthService;
  sessions: WidgetSessionService;
  /** checkout_url's origin (public-url.ts). */
  publicBaseUrl: string;
  /** Run after the public-key guard on the read route (the polling limit), if any. */
  readLimit?: RequestHandler;
}

/** A key's mode: a live key works on live sessions, a test key on test ones. */
export const livemodeOf = (environment: string): boolean => environment === 'live';

/** /api/v1/widget/sessions (KEYS to create, PK to read and cancel); methods and paths come from widget-session.openapi.ts. */
export function widgetSessionRoutes(options: WidgetSessionRouteOptions): Router {
  const { sessions } = options;
  const router = serviceRouter();
  const apiKeyPair = requireApiKeyPair(options.auth);
  const publicKey = requirePublicKey(options.auth);
  const viewer = (res: Response): SessionViewer => {
    const caller = publicKeyCallerOf(res);
    return { merchantId: caller.merchantId, livemode: livemodeOf(caller.environment) };
  };

  mountApiRoute(router, widgetSessionApi.create, apiKeyPair, async (req, res) => {
    const principal = apiKeyPrincipalOf(res);
    const creator = { merchantId: principal.merchantId, livemode: livemodeOf(principal.environment) };
    const { session, replayed } = await sessions.create(creator, req.body, { idempotencyKey: req.get(IDEMPOTENCY_KEY_HEADER) });
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.status(201).location(sessionPath(session.token)).json(presentCreatedSession(session, options.publicBaseUrl));
  });

  mountApiRoute(router, widgetSessionApi.get, publicKey, ...(options.readLimit ? [options.readLimit] : []), async (req, res) => {
    const session = await sessions.get(viewer(res), String(req.params.token));
    res.json(presentSession(session, sessions.clock(), await sessions.loanIdOf(session)));
  });

  mountApiRoute(router, widgetSessionApi.cancel, publicKey, async (req, res) => {
    const session = await sessions.cancel(viewer(res), String(req.params.token));
    res.json(presentSession(session, sessions.clock(), await sessions.loanIdOf(session)));
  });
  return router;
}
