// GET /api/v1/bootstrap's body (README Decisions "Bootstrap").
import type { z } from 'zod';
import { presentProject } from '../projects/index.js';
import type { bootstrapResponse } from './bootstrap.openapi.js';
import type { Bootstrap } from './bootstrap.service.js';

export function presentBootstrap({ membership, team, limits, projects, tags, checklists }: Bootstrap): z.input<typeof bootstrapResponse> {
  return {
    data: {
      user: { id: membership.user.id, name: membership.user.name, email: membership.user.email },
      role: membership.role,
      team: { id: team.id, name: team.name },
      settings: {
        default_match_radius_m: team.defaultMatchRadiusM,
        accuracy_threshold_m: team.accuracyThresholdM,
        photo_max_bytes: limits.photoMaxBytes,
        video_max_bytes: limits.videoMaxBytes,
      },
      projects: projects.map(presentProject),
      tags,
      checklists: checklists as z.input<typeof bootstrapResponse>['data']['checklists'],
    },
  };
}
