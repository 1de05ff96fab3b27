// GET /api/v1/bootstrap as an OpenAPI operation; bootstrap.routes.ts mounts its handler on this definition.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { checklistResource } from '../checklists/index.js';
import { projectResource } from '../projects/index.js';
import { TEAM_ROLES } from '../teams/index.js';

export const bootstrapResponse = z.object({
  data: z
    .object({
      user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
      role: z.enum(TEAM_ROLES),
      team: z.object({ id: z.number().int(), name: z.string() }),
      settings: z
        .object({
          default_match_radius_m: z.number().meta({ description: 'Radius given to a new project that names none, metres.' }),
          accuracy_threshold_m: z.number().meta({ description: 'A fix with a larger accuracy_m is never matched (low_accuracy).' }),
          photo_max_bytes: z.number().int().meta({ description: 'Largest photo upload accepted (413 above).' }),
          video_max_bytes: z.number().int().meta({ description: 'Largest video upload accepted (413 above).' }),
        })
        .meta({ id: 'PhotosTeamSettings' }),
      projects: z.array(projectResource).meta({ description: 'Every active project of the team, newest activity first; `coordinates` null for those never matched by GPS.' }),
      tags: z.array(z.string()).meta({ description: 'Tags in use in the team, sorted.' }),
      checklists: z.array(checklistResource).meta({ description: 'The team\'s open checklists (some item unticked) on active projects, newest first, each as GET /api/v1/checklists/{checklist} answers it.' }),
    })
    .meta({ id: 'PhotosBootstrap' }),
});

export const bootstrapApi = {
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/bootstrap`,
    errors: [401, 403],
    operation: {
      operationId: 'bootstrap',
      summary: 'Everything the capture app needs on first run, in one response',
      description: 'The signed-in user, role and team, the team settings and upload limits, every active project with its coordinates and radius, the tags in use and the checklists. Needs `projects:read` (or a device token\'s `capture`).',
      tags: ['Bootstrap'],
      security: ACCESS_TOKEN_SECURITY,
      responses: { '200': { description: 'The bootstrap.', content: { 'application/json': { schema: bootstrapResponse } } } },
    },
  }),
};
