// Request bodies are JSON only. Anything else is refused before parsing with 415, and body-parser's own
// failures (bad JSON, too large, bad charset) become DomainErrors, so they render in the service's format.
import express, { type RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import {
  MalformedJsonError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
  type DomainError,
} from '../errors/index.js';

/** A route that reads a non-JSON body itself (e.g. a multipart photo upload). */
export interface OtherBodyRoute {
  /** Exact path, or a prefix when it ends with `/*`, e.g. `/api/v1/photos`. */
  path: string;
  /** Media types accepted there, e.g. `['multipart/form-data']`. */
  mediaTypes: string[];
}

const jsonMediaTypes = ['application/json', '+json'];

/**
 * Whether the request carries a body. `type-is`'s hasBody treats `Content-Length: 0` as a body, which would turn
 * every bodiless `POST .../cancel` from a client that always sends a length into a 415.
 */
export function hasRequestBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

function routeMatches(route: OtherBodyRoute, path: string): boolean {
  return route.path.endsWith('/*') ? path.startsWith(route.path.slice(0, -1)) : path === route.path;
}

export function requireJsonBodies(otherBodyRoutes: readonly OtherBodyRoute[]): RequestHandler {
  return (req, _res, next) => {
    if (!hasRequestBody(req) || req.is(jsonMediaTypes)) return next();
    const route = otherBodyRoutes.find((candidate) => routeMatches(candidate, req.path));
    if (route && req.is(route.mediaTypes)) return next();
    next(new UnsupportedMediaTypeError(req.headers['content-type']));
  };
}

export function parseJsonBodies(limit: string): RequestHandler {
  return express.json({ limit, type: jsonMediaTypes, strict: true });
}

interface BodyParserError {
  type: string;
  status?: number;
  /** The raw body, on parse failures. */
  body?: unknown;
}

/** Every JSON body this platform accepts is an object; a bare `null`, string, number or boolean is refused as such. */
export const BODY_NOT_AN_OBJECT_MESSAGE = 'The request body must be a JSON object.';

/** body-parser's strict mode refuses valid JSON whose top level is not an object or array with the same parse error. */
function isValidJsonScalar(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  try {
    const value: unknown = JSON.parse(raw);
    return value === null || typeof value !== 'object';
  } catch {
    return false;
  }
}

const isBodyParserError = (error: unknown): error is Error & BodyParserError =>
  error instanceof Error && typeof (error as Partial<BodyParserError>).type === 'string' && 'expose' in error;

/** Maps body-parser's errors to domain errors; `undefined` when `error` is not one of them. */
export function bodyParserErrorToDomain(error: unknown, limit: string): DomainError | undefined {
  if (!isBodyParserError(error)) return undefined;
  switch (error.type) {
    case 'entity.too.large':
      return new PayloadTooLargeError(limit, { cause: error });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError(undefined);
    case 'entity.parse.failed':
      if (isValidJsonScalar(error.body)) return new ValidationError({ body: [BODY_NOT_AN_OBJECT_MESSAGE] });
      return new MalformedJsonError(error.message, { cause: error });
    case 'request.aborted':
    case 'request.size.invalid':
      return new MalformedJsonError(error.message, { cause: error });
    default:
      return undefined;
  }
}
