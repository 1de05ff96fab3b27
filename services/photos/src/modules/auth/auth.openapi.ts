// The auth routes as OpenAPI operations; auth.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { TEAM_ROLES } from '../teams/index.js';

export const meResponse = z.object({
  data: z
    .object({
      user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
      role: z.enum(TEAM_ROLES),
      team: z.object({ id: z.number().int(), name: z.string() }),
    })
    .meta({ id: 'PhotosSignedInUser' }),
});

export const authApi = {
  me: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/auth/me`,
    errors: [401],
    operation: {
      operationId: 'getSignedInUser',
      summary: 'The signed-in user, their role and the team the token is scoped to',
      tags: ['Auth'],
      security: ACCESS_TOKEN_SECURITY,
      responses: { '200': { description: 'The signed-in user.', content: { 'application/json': { schema: meResponse } } } },
    },
  }),
};
