// CORS for the public payer endpoint /api/pay/*: the spec offers it "for custom checkouts", which run in the payer's
// browser on the merchant's own site, so the browser must be allowed to read it from any origin. It is public and
// credential-free (the slug is the capability; no cookies), so `*` exposes nothing a plain GET would not. Mounted
// before the rate limiter, so 404 and 429 answers carry the headers too (a checkout can read Retry-After) and a
// preflight is answered without spending the payer's budget. The merchant API gets no CORS headers on purpose: its
// keys belong on the merchant's server, never in a browser.
import cors from 'cors';
import type { RequestHandler } from 'express';

/** Preflights may be cached for a day. */
export const PUBLIC_API_CORS_MAX_AGE_SECONDS = 86_400;

export function publicApiCors(): RequestHandler {
  return cors({
    origin: '*',
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['Accept', 'Content-Type'],
    exposedHeaders: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'],
    maxAge: PUBLIC_API_CORS_MAX_AGE_SECONDS,
  });
}
