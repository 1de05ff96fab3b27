import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import { requireToken, signedInOf } from './auth.guard.js';
import { authApi } from './auth.openapi.js';
import { presentSignedInUser } from './auth.presenter.js';
import type { AuthService } from './auth.service.js';

/** /api/v1/auth/*; paths come from auth.openapi.ts. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();
  mountApiRoute(router, authApi.me, requireToken(auth), (_req, res) => {
    res.json(presentSignedInUser(signedInOf(res).membership));
  });
  return router;
}
