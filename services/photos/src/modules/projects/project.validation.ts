// The project list's query (GET /api/v1/projects) as a zod schema: the route documents it (project.openapi.ts) and
// parses with it.
import { integerQueryParam } from '@tributary/kit';
import { z } from 'zod';
import { PROJECT_STATUSES, type ProjectStatus } from './project.entity.js';

/** Status listed when none is asked for (not shown in the spec; decided here). */
export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'active';
/** Page size of project lists (not shown in the spec; decided here). */
export const PROJECTS_PER_PAGE = 25;
/** Highest page number accepted (keeps OFFSET bounded). */
export const PROJECTS_PAGE_MAX = 10_000;
export const PROJECT_SEARCH_MAX = 191;

export const listProjectsQuery = z.object({
  q: z.string().trim().max(PROJECT_SEARCH_MAX).optional().meta({ description: 'Searches name and address (case-insensitive substring).' }),
  status: z.enum(PROJECT_STATUSES).default(DEFAULT_PROJECT_STATUS),
  page: integerQueryParam({ min: 1, max: PROJECTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${PROJECTS_PER_PAGE} projects per page.` }),
});

/** A list query in the domain's terms (what the service takes: from REST once parsed, from GraphQL as it is). */
export interface ProjectListQuery {
  q?: string | undefined;
  status?: ProjectStatus | undefined;
  page?: number | undefined;
}
