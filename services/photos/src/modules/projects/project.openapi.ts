// The project routes as OpenAPI operations: the query schema (project.validation.ts) is the one the route parses with;
// project.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { PROJECT_STATUSES } from './project.entity.js';
import { PROJECTS_PER_PAGE, listProjectsQuery } from './project.validation.js';

export const projectResource = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(PROJECT_STATUSES),
    address: z.string().nullable(),
    coordinates: z
      .object({ lat: z.number(), lng: z.number(), radius_m: z.number().meta({ description: 'Match radius in metres (default 150).' }) })
      .nullable(),
    created_at: z.iso.datetime(),
    last_activity_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosProject' });

export const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosPageMeta' });

export const projectListResponse = z.object({ data: z.array(projectResource), meta: pageMeta });

export const projectApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/projects`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listProjects',
      summary: "List the team's projects",
      description: `Newest activity first, ${PROJECTS_PER_PAGE} per page. \`q\` searches name and address. Needs the \`projects:read\` ability (403 with \`missing_scope\` otherwise).`,
      tags: ['Projects'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listProjectsQuery },
      responses: { '200': { description: 'One page of projects.', content: { 'application/json': { schema: projectListResponse } } } },
    },
  }),
};
