// How every service routes: one spelling of each path reaches a handler, and guards run where the router matched.
// - Case-sensitive and strict: `/API/V1/x`, `/api/v1/x/` and `/api/v1/%78` answer 404 (no handler runs), so a path
//   that is not the documented one never reaches code that its documented spelling reaches behind a limit.
// - Guards (rate limits, CORS) are mounted through the router with the same matching as the routes they protect
//   (`pathGuard`), or as handlers of the route itself, never by comparing the text of `req.path`. A request that reaches
//   a route below a guarded prefix has passed the guard, whatever its spelling.
import { Router, type ErrorRequestHandler, type Express, type RequestHandler } from 'express';

/** The router settings of every service app and of every router mounted in it. */
export const ROUTER_OPTIONS = { caseSensitive: true, strict: true } as const;

/** Marks a router that only guards (never answers a path of its own), so the route inventory skips it. */
export const GUARD_ROUTER = Symbol.for('tributary.guardRouter');
/** Marks a router of pages for people (not the API the OpenAPI document describes), so the route inventory skips it. */
export const PAGE_ROUTER = Symbol.for('tributary.pageRouter');

/** A router with the services' routing settings; every module mounts its routes on one of these. */
export function serviceRouter(): Router {
  return Router(ROUTER_OPTIONS);
}

/** Applies ROUTER_OPTIONS to the app's own router; createServiceApp calls it first. */
export function applyRoutingSettings(app: Express): void {
  app.set('case sensitive routing', ROUTER_OPTIONS.caseSensitive);
  app.set('strict routing', ROUTER_OPTIONS.strict);
}

/** A router of server-rendered pages: routed like the API, left out of the API's route inventory. */
export function pageRouter(): Router {
  const router = serviceRouter();
  Object.defineProperty(router, PAGE_ROUTER, { value: true });
  return router;
}

/**
 * Runs `handlers` for every request the router matches at `prefix` or below it (every method), before the routes
 * mounted after it; other requests skip them. Inside the handlers `req.path` is relative to `prefix` (Express's mount).
 */
export function pathGuard(prefix: string, ...handlers: Array<RequestHandler | ErrorRequestHandler>): Router {
  const router = serviceRouter();
  router.use(prefix, ...handlers);
  Object.defineProperty(router, GUARD_ROUTER, { value: true });
  return router;
}

/**
 * Runs `handlers` for requests the router matches to `route` (its method and path, matched exactly as the route itself
 * is), before the route's own handlers; the last handler calls next() to go on.
 */
export function routeGuard(route: { method: 'get' | 'post' | 'put' | 'patch' | 'delete'; path: string }, ...handlers: RequestHandler[]): Router {
  const router = serviceRouter();
  router[route.method](route.path, ...handlers);
  Object.defineProperty(router, GUARD_ROUTER, { value: true });
  return router;
}

/** Whether `handle` is a router made by pathGuard or routeGuard. */
export function isGuardRouter(handle: unknown): boolean {
  return typeof handle === 'function' && (handle as unknown as Record<symbol, unknown>)[GUARD_ROUTER] === true;
}

/** Whether `handle` is a router made by pageRouter. */
export function isPageRouter(handle: unknown): boolean {
  return typeof handle === 'function' && (handle as unknown as Record<symbol, unknown>)[PAGE_ROUTER] === true;
}
