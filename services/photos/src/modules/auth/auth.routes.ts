import { bearerCredential, mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireRole, requireToken, signedInOf } from './auth.guard.js';
import { authApi } from './auth.openapi.js';
import { presentCreatedIntegrationToken, presentIntegrationTokenPage, presentIssuedToken, presentSignedInUser } from './auth.presenter.js';
import type { AuthService } from './auth.service.js';
import { listTokensQuery } from './auth.validation.js';
import type { IntegrationTokenService } from './integration-token.service.js';
import { TEAM_ADMIN_ROLES } from './roles.js';
import type { SignInService } from './sign-in.service.js';

export interface AuthRouteServices {
  auth: AuthService;
  signIn: SignInService;
  integrationTokens: IntegrationTokenService;
}

/** /api/v1/auth/*; paths come from auth.openapi.ts. */
export function authRoutes({ auth, signIn, integrationTokens }: AuthRouteServices): Router {
  const router = serviceRouter();
  const signedIn = requireToken(auth);
  const teamAdmin = requireRole(...TEAM_ADMIN_ROLES);

  mountApiRoute(router, authApi.me, signedIn, (_req, res) => {
    res.json(presentSignedInUser(signedInOf(res).membership));
  });
  mountApiRoute(router, authApi.login, async (req, res) => {
    res.json(presentIssuedToken(await signIn.login(req.body)));
  });
  mountApiRoute(router, authApi.logout, signedIn, async (_req, res) => {
    await signIn.logout(principalOf(res));
    res.status(204).end();
  });
  mountApiRoute(router, authApi.switchTeam, signedIn, async (req, res) => {
    const moved = await signIn.switchTeam(principalOf(res), req.body);
    // The login body with the token the request carries (requireToken checked it): the same token, now in the new team.
    res.json(presentIssuedToken({ ...moved, token: bearerCredential(req.headers.authorization) ?? '' }));
  });
  mountApiRoute(router, authApi.listTokens, signedIn, teamAdmin, async (req, res) => {
    const { page } = parseInput(listTokensQuery, req.query);
    res.json(presentIntegrationTokenPage(await integrationTokens.list(principalOf(res).teamId, page)));
  });
  mountApiRoute(router, authApi.createToken, signedIn, teamAdmin, async (req, res) => {
    res.status(201).json(presentCreatedIntegrationToken(await integrationTokens.create(principalOf(res), req.body)));
  });
  mountApiRoute(router, authApi.revokeToken, signedIn, teamAdmin, async (req, res) => {
    await integrationTokens.revoke(principalOf(res).teamId, String(req.params.token));
    res.status(204).end();
  });
  return router;
}
