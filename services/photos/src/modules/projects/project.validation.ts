// The project list query as a zod schema: project.openapi.ts documents it and ProjectService.list validates with it.
import { integerQueryParam } from '@tributary/kit';
import { z } from 'zod';
import { PROJECT_STATUSES } from './project.entity.js';

/** Page size of project lists (not shown in the spec; decided here). */
export const PROJECTS_PER_PAGE = 25;
/** Highest page number accepted (keeps OFFSET bounded). */
export const PROJECTS_PAGE_MAX = 10_000;
export const PROJECT_SEARCH_MAX = 191;

export const listProjectsQuery = z.object({
  q: z.string().trim().max(PROJECT_SEARCH_MAX).optional().meta({ description: 'Searches name and address (case-insensitive substring).' }),
  status: z.enum(PROJECT_STATUSES).default('active'),
  page: integerQueryParam({ min: 1, max: PROJECTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${PROJECTS_PER_PAGE} projects per page.` }),
});
