// The REST guards of photos (spec "Authentication"): `requireToken` authenticates the bearer token and keeps the
// signed-in user on res.locals; `requireScope` refuses a token that lacks an ability (403 naming it).
import { ForbiddenError } from '@tributary/kit';
import type { RequestHandler, Response } from 'express';
import type { TeamRole } from '../teams/index.js';
import { assertAbility, type Ability, type ScopeOptions } from './abilities.js';
import { assertRole } from './roles.js';
import type { AuthService, PhotosPrincipal, SignedInUser } from './auth.service.js';

/** Authenticates the bearer token, unless the rate limits' identification already did for this request. */
export function requireToken(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.signedIn = signedInOrUndefined(res) ?? (await auth.signedIn(req.headers.authorization));
    next();
  };
}

/**
 * After requireToken: the token must carry `ability` (login sessions act by role); `{ capture: true }` marks an
 * endpoint of the capture app, which a device token's `capture` ability also reaches.
 */
export function requireScope(ability: Ability, options: ScopeOptions = {}): RequestHandler {
  return (_req, res, next) => {
    assertAbility(principalOf(res), ability, options);
    next();
  };
}

/** After requireToken: an office session whose role is one of `roles` (roles.ts); tokens with abilities → 403. */
export function requireRole(...roles: TeamRole[]): RequestHandler {
  return (_req, res, next) => {
    assertRole(principalOf(res), roles);
    next();
  };
}

/** After requireToken: a device token (login with a device_id); office sessions and integration tokens → 403. */
export function requireDeviceToken(): RequestHandler {
  return (_req, res, next) => {
    if (principalOf(res).deviceId === null) throw new ForbiddenError('This endpoint needs a device token (sign in with a device_id).');
    next();
  };
}

export function signedInOf(res: Response): SignedInUser {
  const signedIn = signedInOrUndefined(res);
  if (!signedIn) throw new Error('signedInOf() used on a route without requireToken()');
  return signedIn;
}

/** The signed-in user of a request whose token authenticated, if any. */
export function signedInOrUndefined(res: Response): SignedInUser | undefined {
  return res.locals.signedIn as SignedInUser | undefined;
}

export function principalOf(res: Response): PhotosPrincipal {
  return signedInOf(res).principal;
}
