// `GET /api/v1/auth/me` as the Decisions table fixes it.
import type { z } from 'zod';
import type { TeamMembership } from '../teams/index.js';
import type { meResponse } from './auth.openapi.js';

export function presentSignedInUser(membership: TeamMembership): z.input<typeof meResponse> {
  return {
    data: {
      user: { id: membership.user.id, name: membership.user.name, email: membership.user.email },
      role: membership.role,
      team: { id: membership.team.id, name: membership.team.name },
    },
  };
}
