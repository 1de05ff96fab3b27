// Requests that are unreadable before any route runs get a 400 in the service's format, never a 500:
// - a URL whose path or query does not percent-decode to UTF-8 text, or decodes to U+0000 (PostgreSQL text cannot
//   hold NUL, so such a value would fail at the database; a lone %F4 would reach the code as U+FFFD, a different value
//   than the client sent);
// - errors Express's router or its helpers raise themselves (a route parameter that does not decode, `send`'s 416 for
//   an unsatisfiable Range on a static file), rendered with their own 4xx.
// Requests Node's HTTP parser refuses (a NUL or a raw byte outside ASCII in a header or the request line) never reach
// Express; startHttpServer answers those (http-server.ts).
import type { Request, RequestHandler } from 'express';
import { HttpClientError, MalformedRequestError, RouteNotFoundError, type DomainError } from '../errors/index.js';

export const MALFORMED_URL_MESSAGE = 'The request URL is malformed: its path and query must percent-decode to UTF-8 text without NUL characters.';
export const MALFORMED_HTTP_MESSAGE = 'The request is not valid HTTP/1.1: a header or the request line holds a character HTTP does not allow.';

/**
 * Whether `url` (path and query as sent) percent-decodes to text: every `%` starts a `%XX` escape, the escaped bytes
 * form valid UTF-8 (no overlong forms, no surrogates: decodeURIComponent refuses exactly those), and nothing decodes
 * to U+0000. Node's parser has already refused raw bytes outside visible ASCII.
 */
export function isWellFormedUrl(url: string): boolean {
  try {
    return !decodeURIComponent(url).includes('\u0000');
  } catch {
    return false;
  }
}

export function malformedUrlError(url: string, cause?: unknown): MalformedRequestError {
  return new MalformedRequestError(`Malformed request URL ${JSON.stringify(url.slice(0, 200))}`, MALFORMED_URL_MESSAGE, cause === undefined ? undefined : { cause });
}

/** Mounted before every route: answers a malformed URL with 400 (malformed_request) in the service's format. */
export function refuseMalformedUrls(): RequestHandler {
  return (req, _res, next) => {
    const url = req.originalUrl;
    next(isWellFormedUrl(url) ? undefined : malformedUrlError(url));
  };
}

interface StatusError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
}

function clientStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, statusCode, expose } = error as Error & StatusError;
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  // The router's "Failed to decode param" is a URIError with status 400 (no `expose`); http-errors set expose on every
  // 4xx. Other errors that merely carry a status (an upstream API's 404) stay internal errors.
  return expose === true || error instanceof URIError ? code : undefined;
}

/** Maps a 4xx raised by Express, its router or `send` to a domain error; `undefined` for anything else. */
export function expressErrorToDomain(error: unknown, req: Request): DomainError | undefined {
  const status = clientStatusOf(error);
  if (status === undefined) return undefined;
  if (error instanceof URIError) return malformedUrlError(req.originalUrl, error);
  if (status === 400) return new MalformedRequestError((error as Error).message, undefined, { cause: error });
  if (status === 404) return new RouteNotFoundError(req.method, req.path);
  return new HttpClientError(status, (error as Error).message, { cause: error });
}
