import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import type { z } from 'zod';
import { authApi, type meResponse } from './auth.openapi.js';
import type { AuthService } from './auth.service.js';

/** /api/v1/auth/*; paths come from auth.openapi.ts. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();
  mountApiRoute(router, authApi.me, async (req, res) => {
    const { membership } = await auth.signedIn(req.headers.authorization);
    const body: z.input<typeof meResponse> = {
      data: {
        user: { id: membership.user.id, name: membership.user.name, email: membership.user.email },
        role: membership.role,
        team: { id: membership.team.id, name: membership.team.name },
      },
    };
    res.json(body);
  });
  return router;
}
