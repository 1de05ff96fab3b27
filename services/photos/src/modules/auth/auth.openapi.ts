// The auth routes as OpenAPI operations; auth.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { TEAM_ROLES } from '../teams/team-membership.entity.js';

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
    path: '/api/v1/auth/me',
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
