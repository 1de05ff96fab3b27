// The project list's query (GET /api/v1/projects) as a zod schema: the route documents it (project.openapi.ts) and
// parses with it.
import { z } from 'zod';
import { PROJECT_STATUSES, type ProjectStatus } from './project.entity.js';

/** Status listed when none is asked for (not shown in the spec; decided here). */
export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'active';

export const listProjectsQuery = z.object({
  q: z.string().trim().max(191).optional(),
  status: z.enum(PROJECT_STATUSES).default(DEFAULT_PROJECT_STATUS),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** A list query in the domain's terms (what the service takes: from REST once parsed, from GraphQL as it is). */
export interface ProjectListQuery {
  q?: string | undefined;
  status?: ProjectStatus | undefined;
  page?: number | undefined;
}
