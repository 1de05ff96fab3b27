// The guards of the widget session API (spec "Authentication"): KEYS (secret key + public key, server to server) to
// create a session, PK (the public key alone, which a merchant page may embed) to read and cancel one. Each keeps its
// caller on res.locals; every failure is the one 401.
import { clientIpKey } from '@tributary/kit';
import type { RequestHandler, Response } from 'express';
import type { BnplPrincipal, MerchantAuthService, PublicKeyCaller } from './merchant-auth.service.js';

/** The request header carrying the public key (KEYS and PK). */
export const PUBLIC_KEY_HEADER = 'X-Merchant-Public-Key';

/** KEYS: `Authorization: Bearer <SECRET_KEY>` plus `X-Merchant-Public-Key`; keeps the principal on res.locals. */
export function requireApiKeyPair(auth: MerchantAuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await auth.authenticateApiKey(req.headers.authorization, req.get(PUBLIC_KEY_HEADER), clientIpKey(req));
    next();
  };
}

export function apiKeyPrincipalOf(res: Response): BnplPrincipal & { kind: 'api_key' } {
  const principal = res.locals.principal as (BnplPrincipal & { kind: 'api_key' }) | undefined;
  if (principal?.kind !== 'api_key') throw new Error('apiKeyPrincipalOf() used on a route without requireApiKeyPair()');
  return principal;
}

/** PK: `X-Merchant-Public-Key` of an active (unrevoked) key; keeps the caller on res.locals. */
export function requirePublicKey(auth: MerchantAuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.publicKeyCaller = await auth.authenticatePublicKey(req.get(PUBLIC_KEY_HEADER), clientIpKey(req));
    next();
  };
}

export function publicKeyCallerOf(res: Response): PublicKeyCaller {
  const caller = res.locals.publicKeyCaller as PublicKeyCaller | undefined;
  if (!caller) throw new Error('publicKeyCallerOf() used on a route without requirePublicKey()');
  return caller;
}
