// The kit app's first middleware: times every request into tributary_http_request_duration_seconds and answers
// GET /metrics. Mounted without a path, so /metrics is no route of the app: not in the OpenAPI documents or the route
// inventory, and answered before request logging, authentication and rate limits. With METRICS_TOKEN set, a scrape
// must send `Authorization: Bearer <token>`.
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AuthenticationError } from '../errors/index.js';
import { UNMATCHED_ROUTE, collectProcessMetrics, httpRequestDuration, metricsRegistry } from './metrics.js';

export const METRICS_PATH = '/metrics';

export interface HttpMetricsOptions {
  service: string;
  /** Bearer token /metrics requires; undefined = none. */
  metricsToken?: string | undefined;
}

/**
 * The route template of a handled request: the mount path plus the matched route's path (`/api/v1/loans/:id`), the
 * mount path of path-mounted middleware that answered (Apollo on `/graphql`), or UNMATCHED_ROUTE. Read when the
 * response has finished, when Express has left the request's routers and the raw URL is the only other thing left.
 */
export function routeTemplate(req: Request): string {
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath === 'string') return `${req.baseUrl}${routePath}` || '/';
  return req.baseUrl || UNMATCHED_ROUTE;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.match(/^Bearer (.+)$/i)?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function httpMetrics(options: HttpMetricsOptions): RequestHandler {
  const { service, metricsToken } = options;
  collectProcessMetrics(service);
  return (req, res, next) => {
    if (req.path === METRICS_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      if (metricsToken !== undefined && !bearerMatches(req.headers.authorization, metricsToken)) {
        next(new AuthenticationError('metrics scrape without the METRICS_TOKEN bearer'));
        return;
      }
      metricsRegistry
        .metrics()
        .then((body) => {
          res.setHeader('Content-Type', metricsRegistry.contentType);
          res.setHeader('Cache-Control', 'no-store');
          res.end(req.method === 'HEAD' ? undefined : body);
        })
        .catch(next);
      return;
    }
    const stop = httpRequestDuration.startTimer();
    res.once('finish', () => {
      stop({ service, method: req.method, route: routeTemplate(req), status_code: String(res.statusCode) });
    });
    next();
  };
}
