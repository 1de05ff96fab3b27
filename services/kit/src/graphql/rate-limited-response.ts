// A limiter mounted in front of a subgraph fails with RateLimitedError before Apollo runs; this answers it the way the
// subgraph answers every other refusal: a GraphQL error with extensions.code RATE_LIMITED (and retryAfterSeconds),
// status 200 so the gateway passes the body through (it turns non-2xx subgraph answers into opaque errors), plus the
// Retry-After header for clients that call the subgraph directly.
import type { ErrorRequestHandler } from 'express';
import { RateLimitedError } from '../errors/index.js';
import { domainErrorExtensions, domainErrorMessage } from './graphql-errors.js';

/** Error middleware for the subgraph's own guard (pathGuard(SUBGRAPH_PATH, ...limiters, this)); other errors pass on. */
export function graphqlRateLimitedResponse(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (!(error instanceof RateLimitedError)) return next(error);
    res
      .status(200)
      .set('Retry-After', String(error.retryAfterSeconds))
      .json({ errors: [{ message: domainErrorMessage(error), extensions: domainErrorExtensions(error) }] });
  };
}
