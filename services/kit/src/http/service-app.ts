// The Express app every service runs: request metrics and /metrics, request ids, access logs, a deadline on every
// request, malformed URLs refused, JSON-only bodies, health probes, a request-scoped EntityManager, the service's own
// routes, then 405, 404 and one error handler.
import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import {
  InternalError,
  RouteNotFoundError,
  isDomainError,
  type DomainError,
  type ErrorFormat,
} from '../errors/index.js';
import { databaseUnavailableError } from '../database/unavailable.js';
import type { Logger } from '../logging/index.js';
import { httpMetrics } from '../observability/http-metrics.js';
import { httpTracing } from '../observability/tracing.js';
import { accessLog } from './access-log.js';
import { capabilityRedaction, type CapabilityToken } from './capabilities.js';
import { CLIENT_ERROR_LISTENER } from './http-server.js';
import { bodyParserErrorToDomain, parseJsonBodies, requireJsonBodies, type OtherBodyRoute } from './json-body.js';
import { expressErrorToDomain, refuseMalformedUrls } from './malformed-request.js';
import { refuseUnservedMethods } from './method-not-allowed.js';
import { answerParseErrors } from './parse-errors.js';
import { runReadinessChecks, type ReadinessCheck } from './readiness.js';
import { REQUEST_DEADLINE_MS, answeredByDeadline, requestDeadline } from './request-deadline.js';
import { applyRoutingSettings } from './routing.js';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  errorFormat: ErrorFormat;
  /** Largest accepted JSON body, in body-parser's notation (`1mb`). */
  bodyLimit?: string;
  readiness: ReadinessCheck[];
  /** Per-check budget for /readyz. */
  readinessTimeoutMs?: number;
  /** When given, each request runs in its own MikroORM RequestContext (see `requestEntityManager`). */
  orm?: MikroORM;
  /** Routes that read a non-JSON body themselves. */
  otherBodyRoutes?: OtherBodyRoute[];
  /** Bearer token GET /metrics requires (METRICS_TOKEN); undefined = none. */
  metricsToken?: string | undefined;
  /** Capability tokens in the service's paths: shortened in the access log and the traces (capabilities.ts). */
  capabilities?: readonly CapabilityToken[];
  /** How long a request may go unanswered (request-deadline.ts); REQUEST_DEADLINE_MS by default. */
  requestDeadlineMs?: number;
  /** Mount REST routes and the subgraph here. */
  configure: (app: Express) => void | Promise<void>;
}

const probePaths = new Set(['/healthz', '/readyz']);

export async function createServiceApp(options: ServiceAppOptions): Promise<Express> {
  const { logger, errorFormat } = options;
  const bodyLimit = options.bodyLimit ?? '1mb';
  const app = express();
  applyRoutingSettings(app);
  app.disable('x-powered-by');
  // startHttpServer answers requests Node's parser refuses with this, in the same format.
  Object.defineProperty(app, CLIENT_ERROR_LISTENER, { value: answerParseErrors(errorFormat, logger) });

  // First, so its timing covers every other middleware and /metrics skips them all.
  app.use(httpMetrics({ service: options.service, metricsToken: options.metricsToken }));
  const capabilities = capabilityRedaction(options.capabilities ?? []);
  // Orchestrators poll the probes every few seconds; only failures are worth a line.
  app.use(accessLog(logger, { quietPaths: probePaths, loggedUrl: capabilities.url }));
  // After the access log, so the 503 it answers is logged like any other; before everything that may wait.
  const renderError = errorRenderer(errorFormat, bodyLimit);
  app.use(requestDeadline(options.requestDeadlineMs ?? REQUEST_DEADLINE_MS, (error, res) => renderError(error, res.req, res)));
  // Before every route (probes and unknown paths included) and before the body is read.
  app.use(refuseMalformedUrls());
  // Before the service's routes and guards, so a request they refuse is shortened like one they answer.
  app.use(capabilities.router);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    const report = await runReadinessChecks(options.readiness, options.readinessTimeoutMs ?? 2_000, req.log);
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });

  app.use(requireJsonBodies(options.otherBodyRoutes ?? []));
  app.use(parseJsonBodies(bodyLimit));
  // After body parsing, like the request context below: the span stays active through the handlers.
  app.use(httpTracing(options.service, { recordedUrl: capabilities.url }));

  if (options.orm) {
    const em = options.orm.em;
    // After body parsing: the context lives in AsyncLocalStorage, which stream callbacks would not carry.
    const requestContext: RequestHandler = (_req, _res, next) => RequestContext.create(em, next);
    app.use(requestContext);
  }

  await options.configure(app);

  app.use(refuseUnservedMethods(app));
  app.use((req, _res, next) => next(new RouteNotFoundError(req.method, req.path)));
  app.use(errorHandler(renderError));
  return app;
}

type ErrorRenderer = (error: unknown, req: Request, res: Response) => void;

function errorHandler(renderError: ErrorRenderer): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    // The deadline has answered already: the route failed after it, and its error goes nowhere (the 503 is logged).
    if (answeredByDeadline(res)) return;
    if (res.headersSent) {
      // Too late to send an error body; Express's default handler closes the connection.
      return next(error);
    }
    renderError(error, req, res);
  };
}

/** The one way an error becomes an answer: as a DomainError, rendered in the service's format. */
function errorRenderer(format: ErrorFormat, bodyLimit: string): ErrorRenderer {
  return (error, req, res) => {
    const domainError: DomainError = isDomainError(error)
      ? error
      : (bodyParserErrorToDomain(error, bodyLimit) ?? expressErrorToDomain(error, req) ?? databaseUnavailableError(error) ?? new InternalError(error));
    if (domainError.kind === 'internal' || domainError.kind === 'unavailable') {
      // The access log logs the response with this error, its stack and the request id; the client sees none of it.
      res.err = error instanceof Error ? error : new Error(String(error));
    }
    const rendered = format.render(domainError);
    res.status(rendered.status);
    for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
    // A request that failed mid-body may have unread bytes; closing avoids reading them as the next request.
    if (!req.complete) res.setHeader('Connection', 'close');
    // A handler that failed midway (res.sendFile) may have set its own Content-Type; the error body is always JSON.
    res.type('json').json(rendered.body);
  };
}
