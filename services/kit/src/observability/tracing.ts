// OpenTelemetry traces (the official SDK, @opentelemetry/sdk-trace-node), off unless the standard OTEL_* variables ask
// for them. Spans are made at the kit's seams rather than by auto-instrumentation, which needs a loader hook for ES
// modules (this codebase is ESM): the HTTP server span of every request (continuing the caller's W3C traceparent), one
// span per SQL statement (from MikroORM's query log), the workflow outbox's dispatch with Temporal's client
// interceptor's StartWorkflow span (which carries the context into the workflow's headers), and the gateway's own
// Apollo spans, whose subgraph fetches send the traceparent on.
import { SpanKind, SpanStatusCode, context, propagation, trace, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { routeTemplate } from './http-metrics.js';

/** The span attribute naming the service (bnpl, crypto, photos, gateway) that made a span. */
export const SERVICE_ATTRIBUTE = 'tributary.service';

/** The tracer name of the kit's spans. */
export const TRACER_NAME = '@tributary/kit';

export function kitTracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** Exporters OTEL_TRACES_EXPORTER may name (the SDK's spelling); `none` or unset with no OTLP endpoint = tracing off. */
const EXPORTERS = ['otlp', 'console', 'none'] as const;

/** Which exporter the environment asks for, or undefined when tracing stays off (the default). */
export function tracesExporterFromEnv(env: NodeJS.ProcessEnv): 'otlp' | 'console' | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const named = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (named) {
    if (!(EXPORTERS as readonly string[]).includes(named)) throw new Error(`OTEL_TRACES_EXPORTER must be one of ${EXPORTERS.join(', ')}`);
    return named === 'none' ? undefined : (named as 'otlp' | 'console');
  }
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ? 'otlp' : undefined;
}

/** Whether this process records spans: without it the request middleware steps aside (no per-request cost). */
let tracingInstalled = false;

export interface Tracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer provider (AsyncLocalStorage context, W3C trace context + baggage propagation) with
 * `processor`; every span the kit and Apollo make from then on is recorded. Tests pass an in-memory exporter.
 */
export function installTracing(service: string, processor: SpanProcessor): Tracing {
  tracingInstalled = true;
  const provider = new NodeTracerProvider({
    resource: new Resource({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME?.trim() || service }),
    spanProcessors: [processor],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}

/**
 * Turns tracing on when OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT asks for it (the OTLP/HTTP
 * exporter reads its endpoint, headers and timeout from the standard OTEL_EXPORTER_OTLP_* variables itself).
 */
export function startTracingFromEnv(service: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  const exporter = tracesExporterFromEnv(env);
  if (!exporter) return undefined;
  const spanExporter: SpanExporter = exporter === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter();
  return installTracing(service, exporter === 'console' ? new SimpleSpanProcessor(spanExporter) : new BatchSpanProcessor(spanExporter));
}

/** Runs `fn` in a span of the kit's tracer that ends when it settles (an error is recorded on it and rethrown). */
export async function inSpan<T>(name: string, attributes: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  return kitTracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A finished SQL statement as a span of the active context (MikroORM logs it with its duration after it ran). */
export function recordQuerySpan(statement: string, tookMs: number | undefined, failed: boolean): void {
  if (!tracingInstalled) return;
  const active = trace.getSpan(context.active());
  // Only inside a trace: a statement outside any request or dispatch (pool warm-up, sweeps) starts none.
  if (!active) return;
  const end = Date.now();
  const span = kitTracer().startSpan(
    `SQL ${statement.trimStart().split(/\s/, 1)[0]?.toLowerCase() ?? 'query'}`,
    { kind: SpanKind.CLIENT, startTime: end - (tookMs ?? 0), attributes: { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR_DB_QUERY_TEXT]: statement } },
    context.active(),
  );
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

/** Writes the active context's traceparent (and baggage) into outgoing headers. */
export function injectTraceHeaders(headers: { set(name: string, value: string): void }): void {
  propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

export interface HttpTracingOptions {
  /** The URL the span records (its path part: `url.path`); the app's shortens capability tokens (http/capabilities.ts). */
  recordedUrl?: (req: IncomingMessage) => string;
}

const pathOf = (url: string): string => url.split('?', 1)[0] ?? '';

/**
 * The server span of every request, continuing the caller's W3C traceparent, active while the app handles it; named
 * `METHOD route-template` when the response has finished. Mount it after the body is read: AsyncLocalStorage does not
 * follow the request stream's callbacks (the same reason as MikroORM's RequestContext).
 */
export function httpTracing(service: string, options: HttpTracingOptions = {}): RequestHandler {
  const recordedPath = (req: Request): string => pathOf(options.recordedUrl ? options.recordedUrl(req) : req.originalUrl);
  return (req, res, next) => {
    if (!tracingInstalled) return next();
    const parent = propagation.extract(context.active(), req.headers);
    const span = kitTracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { [SERVICE_ATTRIBUTE]: service, [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_URL_PATH]: recordedPath(req) } },
      parent,
    );
    res.once('finish', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      // Again now that the router has matched: a capability it found in the path is shortened too.
      span.setAttributes({ [ATTR_URL_PATH]: recordedPath(req), [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
