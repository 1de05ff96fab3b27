// The guards of the widget session API (spec "Authentication"): KEYS (secret key + public key, server to server) to
// create a session, PK (the public key alone, which a merchant page may embed) to read and cancel one. Each keeps its
// caller on res.locals; every failure is the one 401.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError } from '@tributary/kit';
import type { RequestHandler, Response } from 'express';
import { ApiKey, PUBLIC_KEY_PATTERN, type ApiKeyEnvironment } from '../api-keys/index.js';
import type { BnplPrincipal, MerchantAuthService } from './merchant-auth.service.js';

/** The request header carrying the public key (KEYS and PK). */
export const PUBLIC_KEY_HEADER = 'X-Merchant-Public-Key';

/** Who called a PK route: the merchant and the mode of the active key whose public key came with the request. */
export interface PublicKeyCaller {
  merchantId: string;
  apiKeyId: string;
  environment: ApiKeyEnvironment;
}

/** KEYS: `Authorization: Bearer <SECRET_KEY>` plus `X-Merchant-Public-Key`; keeps the principal on res.locals. */
export function requireApiKeyPair(auth: MerchantAuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await auth.authenticateApiKey(req.headers.authorization, req.get(PUBLIC_KEY_HEADER));
    next();
  };
}

export function apiKeyPrincipalOf(res: Response): BnplPrincipal & { kind: 'api_key' } {
  const principal = res.locals.principal as (BnplPrincipal & { kind: 'api_key' }) | undefined;
  if (principal?.kind !== 'api_key') throw new Error('apiKeyPrincipalOf() used on a route without requireApiKeyPair()');
  return principal;
}

/**
 * PK: `X-Merchant-Public-Key` of an active (unrevoked) key; no secret is involved, so there is no bcrypt work. A
 * missing, malformed, unknown or revoked public key is the one 401. `em` resolves to the request's EntityManager.
 */
export function requirePublicKey(em: EntityManager): RequestHandler {
  return async (req, res, next) => {
    res.locals.publicKeyCaller = await publicKeyCaller(em, req.get(PUBLIC_KEY_HEADER));
    next();
  };
}

export function publicKeyCallerOf(res: Response): PublicKeyCaller {
  const caller = res.locals.publicKeyCaller as PublicKeyCaller | undefined;
  if (!caller) throw new Error('publicKeyCallerOf() used on a route without requirePublicKey()');
  return caller;
}

async function publicKeyCaller(em: EntityManager, publicKey: string | undefined): Promise<PublicKeyCaller> {
  const key = publicKey && PUBLIC_KEY_PATTERN.test(publicKey) ? await em.getRepository(ApiKey).findByPublicKeyWithMerchant(publicKey) : null;
  if (!key) throw new AuthenticationError('unknown or malformed public key');
  if (key.isRevoked()) throw new AuthenticationError('revoked public key');
  return { merchantId: key.merchant.id, apiKeyId: key.id, environment: key.environment };
}
