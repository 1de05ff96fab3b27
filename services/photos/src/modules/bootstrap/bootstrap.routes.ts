import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { requireScope, requireToken, signedInOf, type AuthService } from '../auth/index.js';
import { bootstrapApi } from './bootstrap.openapi.js';
import { presentBootstrap } from './bootstrap.presenter.js';
import type { BootstrapService } from './bootstrap.service.js';

/** GET /api/v1/bootstrap (projects:read, a capture endpoint). */
export function bootstrapRoutes(auth: AuthService, bootstrap: BootstrapService): Router {
  const router = serviceRouter();
  mountApiRoute(router, bootstrapApi.get, requireToken(auth), requireScope('projects:read', { capture: true }), async (_req, res) => {
    res.json(presentBootstrap(await bootstrap.bootstrap(signedInOf(res))));
  });
  return router;
}
