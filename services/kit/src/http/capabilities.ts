// Capability tokens in URL paths (photos' report share link, bnpl's widget session token, crypto's payment request
// slug) open what they name to whoever holds them, so the access log and the traces never record one whole. Each
// service declares its capabilities: the token's format and the routes whose parameter carries one. What the router
// matched at those routes is shortened to its prefix and first characters (`ws_abcd…`, enough for an operator to
// correlate lines), and so is any text of a declared format anywhere else in the URL (requests refused before a route
// matched: malformed URLs, unknown paths, a trailing slash).
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Router } from 'express';
import { tokenSearchPattern, type TokenFormat } from '../security/token-format.js';
import { GUARD_ROUTER, serviceRouter } from './routing.js';

export interface CapabilityToken {
  /** What it is, for people (`widget session token`). */
  name: string;
  format: TokenFormat;
  /** The routes (Express notation, as the service mounts them) and the parameter of each that carries the token. */
  routes: ReadonlyArray<{ path: string; param: string }>;
}

/** Characters of a capability kept after its prefix in logs and traces. */
export const CAPABILITY_SHOWN_CHARS = 4;

/** The loggable form of a capability: its prefix (when it has it) and the next CAPABILITY_SHOWN_CHARS characters. */
export function capabilityShortForm(value: string, prefix: string): string {
  const kept = prefix && value.startsWith(prefix) ? prefix.length + CAPABILITY_SHOWN_CHARS : CAPABILITY_SHOWN_CHARS;
  return `${value.slice(0, kept)}…`;
}

interface Matched {
  value: string;
  prefix: string;
}

export interface CapabilityRedaction {
  /** Mounted before the service's routes: records the capabilities the router matches in each request's path. */
  router: Router;
  /** The request's URL as sent (path and query), every capability in it shortened. */
  url(req: IncomingMessage): string;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function shortenMatchedSegments(path: string, matched: readonly Matched[]): string {
  return path
    .split('/')
    .map((segment) => {
      const decoded = decodeSegment(segment);
      const hit = matched.find((m) => m.value === decoded);
      return hit ? capabilityShortForm(hit.value, hit.prefix) : segment;
    })
    .join('/');
}

/** The redaction of `capabilities`: the router to mount and the URL to log. */
export function capabilityRedaction(capabilities: readonly CapabilityToken[]): CapabilityRedaction {
  const matchedBy = new WeakMap<IncomingMessage, Matched[]>();
  const router = serviceRouter();
  for (const { format, routes } of capabilities) {
    for (const { path, param } of routes) {
      const mark: RequestHandler = (req, _res, next) => {
        const value = req.params[param];
        if (typeof value === 'string' && value !== '') matchedBy.set(req, [...(matchedBy.get(req) ?? []), { value, prefix: format.prefix }]);
        // Express keeps the last matched route on the request; nothing routes before this router, and the route
        // template of metrics and spans must be the one of the route that answers (or none).
        delete (req as { route?: unknown }).route;
        next();
      };
      router.all(path, mark);
    }
  }
  // It answers nothing itself: the route inventory, 405s and the OpenAPI checks skip it.
  Object.defineProperty(router, GUARD_ROUTER, { value: true });
  const patterns = capabilities.map(({ format }) => ({ search: tokenSearchPattern(format), prefix: format.prefix }));
  const url = (req: IncomingMessage): string => {
    const original = (req as Partial<Request>).originalUrl ?? req.url ?? '';
    const queryStart = original.indexOf('?');
    const path = queryStart === -1 ? original : original.slice(0, queryStart);
    const matched = matchedBy.get(req);
    const shortened = (matched ? shortenMatchedSegments(path, matched) : path) + (queryStart === -1 ? '' : original.slice(queryStart));
    return patterns.reduce((text, { search, prefix }) => text.replace(search, (token) => capabilityShortForm(token, prefix)), shortened);
  };
  return { router, url };
}
