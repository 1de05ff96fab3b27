// The merchant API's guard (spec "Authentication"): authenticates the bearer API key and keeps the caller on res.locals.
import type { RequestHandler, Response } from 'express';
import type { AccountService, CryptoPrincipal } from './account.service.js';

/** REST guard: authenticates the bearer API key and keeps the principal on res.locals. */
export function requireApiKey(accounts: AccountService): RequestHandler {
  return async (req, res, next) => {
    // The merchant rate limiter (rate-limits.ts) may already have authenticated this request's key.
    res.locals.principal ??= await accounts.authenticate(req.headers.authorization);
    next();
  };
}

export function principalOf(res: Response): CryptoPrincipal {
  const principal = res.locals.principal as CryptoPrincipal | undefined;
  if (!principal) throw new Error('principalOf() used on a route without requireApiKey()');
  return principal;
}
