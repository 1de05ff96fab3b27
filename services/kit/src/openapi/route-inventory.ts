// What an Express 5 app really serves, read from its router stack, compared with what a document describes.
import type { Express } from 'express';
import { ROUTER_OPTIONS, isGuardRouter, isPageRouter } from '../http/routing.js';
import { toOpenApiPath } from './api-route.js';
import type { OpenApiDocument } from './document.js';

export interface RegisteredRoute {
  /** Upper-case method, or `ALL` for middleware mounted on a path (e.g. Apollo on /graphql). */
  method: string;
  /** OpenAPI notation (`/a/{id}`). */
  path: string;
}

/** The router's own path matcher of a layer: `false`, or the part of the path it matched. */
type LayerMatcher = (path: string) => false | { path: string };

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean | undefined> };
  handle?: { stack?: RouterLayer[]; caseSensitive?: boolean; strict?: boolean };
  slash?: boolean;
  rawPath?: unknown;
  matchers?: LayerMatcher[];
}

interface AppRouter {
  stack: RouterLayer[];
  caseSensitive?: boolean;
  strict?: boolean;
}

function appRouter(app: Express): AppRouter | undefined {
  return (app as unknown as { router?: AppRouter }).router;
}

function routerStack(app: Express): RouterLayer[] {
  return appRouter(app)?.stack ?? [];
}

function matchesLikeServices(router: { caseSensitive?: boolean; strict?: boolean }): boolean {
  return router.caseSensitive === ROUTER_OPTIONS.caseSensitive && router.strict === ROUTER_OPTIONS.strict;
}

function collectOtherRouters(stack: readonly RouterLayer[], prefix: string, out: string[]): void {
  for (const layer of stack) {
    const nested = layer.handle?.stack;
    if (layer.route || !nested || !layer.handle) continue;
    const mountedAt = layer.slash ? '' : String(layer.rawPath);
    if (!matchesLikeServices(layer.handle)) out.push(prefix + mountedAt || '/');
    collectOtherRouters(nested, prefix + mountedAt, out);
  }
}

/**
 * Mount paths of the routers in `app` (its own included, as `app`) that match paths differently from ROUTER_OPTIONS:
 * a router that ignores case or a trailing slash would reach a handler its guards do not cover.
 */
export function routersMatchingOtherwise(app: Express): string[] {
  const out: string[] = [];
  const own = appRouter(app);
  if (own && !matchesLikeServices(own)) out.push('app');
  collectOtherRouters(own?.stack ?? [], '', out);
  return out;
}

function walk(stack: readonly RouterLayer[], prefix: string, out: RegisteredRoute[]): void {
  for (const layer of stack) {
    // Guards serve nothing of their own (the routes after them do); pages are not the API.
    if (isGuardRouter(layer.handle) || isPageRouter(layer.handle)) continue;
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (!on) continue;
        for (const path of paths) out.push({ method: method === '_all' ? 'ALL' : method.toUpperCase(), path: toOpenApiPath(prefix + path) });
      }
      continue;
    }
    const mountedAt = layer.slash ? '' : typeof layer.rawPath === 'string' ? layer.rawPath : undefined;
    if (mountedAt === undefined) throw new Error(`route inventory: cannot read the mount path of middleware ${String(layer.rawPath)}`);
    if (layer.handle?.stack) walk(layer.handle.stack, prefix + mountedAt, out);
    // Global middleware (mounted at '/') serves no path of its own.
    else if (!layer.slash) out.push({ method: 'ALL', path: toOpenApiPath(prefix + mountedAt) });
  }
}

/** Every route and path-mounted middleware of `app`, in registration order. */
export function listRegisteredRoutes(app: Express): RegisteredRoute[] {
  const out: RegisteredRoute[] = [];
  walk(routerStack(app), '', out);
  return out;
}

/** Which of the layer's paths matches `path`, with the router's own matching (parameters, trailing slash, case). */
function matchLayer(layer: RouterLayer, path: string): { path: string } | undefined {
  for (const matcher of layer.matchers ?? []) {
    try {
      const match = matcher(path);
      if (match) return match;
    } catch {
      // A parameter that does not percent-decode: no route serves that path.
    }
  }
  return undefined;
}

function collectMethods(stack: readonly RouterLayer[], path: string, out: Set<string>): void {
  for (const layer of stack) {
    if (isGuardRouter(layer.handle)) continue;
    if (layer.route) {
      if (!matchLayer(layer, path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) if (on) out.add(method === '_all' ? '*' : method.toUpperCase());
      continue;
    }
    const nested = layer.handle?.stack;
    if (!nested) continue;
    if (layer.slash) {
      collectMethods(nested, path, out);
      continue;
    }
    const mounted = matchLayer(layer, path);
    if (mounted) collectMethods(nested, path.slice(mounted.path.length) || '/', out);
  }
}

/**
 * The methods `app`'s routes serve at `path` (upper case; HEAD wherever GET is, as Express answers it), matched the way
 * the router matches; `*` when a route there takes every method (`app.all`). Path-mounted middleware (Apollo on
 * /graphql) answers for its own methods and is not counted.
 */
export function methodsServedAt(app: Express, path: string): Set<string> {
  const methods = new Set<string>();
  collectMethods(routerStack(app), path, methods);
  if (methods.has('GET')) methods.add('HEAD');
  return methods;
}

export function documentedRoutes(document: OpenApiDocument): RegisteredRoute[] {
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path })),
  );
}

export interface RouteDrift {
  /** Served but not described (`GET /a/{id}`). */
  undocumented: string[];
  /** Described but not served. */
  unserved: string[];
}

/**
 * Both directions at once. A path-mounted middleware (`ALL /graphql`) is documented when the document has any
 * operation on that path, and serves every documented operation on it. `ignore` drops served routes that are not
 * API surface (the docs page's static assets).
 */
export function compareRoutesWithDocument(app: Express, document: OpenApiDocument, options: { ignore?: (route: RegisteredRoute) => boolean } = {}): RouteDrift {
  const served = listRegisteredRoutes(app).filter((route) => !options.ignore?.(route));
  const described = documentedRoutes(document);
  const key = (route: RegisteredRoute) => `${route.method} ${route.path}`;
  const undocumented = served.filter((route) =>
    route.method === 'ALL' ? !described.some((d) => d.path === route.path) : !described.some((d) => key(d) === key(route)),
  );
  const unserved = described.filter((d) => !served.some((route) => route.path === d.path && (route.method === 'ALL' || route.method === d.method)));
  return { undocumented: [...new Set(undocumented.map(key))], unserved: unserved.map(key) };
}
