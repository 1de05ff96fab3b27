// The task inputs as zod schemas: the create and edit bodies and the list query.
import { integerQueryParam, parseInput, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { mineQueryParam, optionalIdQueryParam } from '../../list-query-params.js';
import { MAX_ID } from '../photos/index.js';
import { DEFAULT_TASK_STATUS_FILTER, TASK_STATUS_FILTERS, type TaskStatusFilter } from './task-status.js';

/** Page size of task lists (as for projects and photos). */
export const TASKS_PER_PAGE = 25;
export const TASKS_PAGE_MAX = 10_000;
export const TASK_TITLE_MAX = 191;
export const TASK_DESCRIPTION_MAX = 5_000;

const id = (description: string) => z.number().int().min(1).max(MAX_ID).meta({ description });
const title = wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(TASK_TITLE_MAX, { error: `Must be at most ${TASK_TITLE_MAX} characters.` }));
const description = wellFormedText(z.string().trim().max(TASK_DESCRIPTION_MAX, { error: `Must be at most ${TASK_DESCRIPTION_MAX} characters.` }));
/** An instant with its offset, within the years PostgreSQL and clients agree on. */
const dueAt = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T17:00:00Z.' })
  .refine((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 1970 && year <= 9999;
  }, { error: 'Must be between the years 1970 and 9999.' })
  .transform((value) => new Date(value));

export const createTaskBody = z
  .strictObject({
    photo_id: id('The photo the task is about; alone it suffices: the project is the photo\'s.').optional(),
    project_id: id('A project of the team; needed without photo_id, and must be the photo\'s project with it.').optional(),
    title: title.optional().meta({ description: 'Required without photo_id; with one it defaults to the photo\'s description (its first line) or "Follow up on photo <id>".' }),
    description: description.optional(),
    assignee_id: id('A member of the team.').nullable().optional(),
    due_at: dueAt.nullable().optional().meta({ description: 'ISO 8601 with offset; the task is overdue once it has passed while open.' }),
  })
  .meta({ id: 'PhotosTaskCreate' });
export type NewTask = z.infer<typeof createTaskBody>;

export const updateTaskBody = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    assignee_id: id('A member of the team; null unassigns.').nullable().optional(),
    due_at: dueAt.nullable().optional().meta({ description: 'ISO 8601 with offset; null clears it.' }),
    completed: z.boolean().optional().meta({ description: 'true closes an open task (closed_at, closed_by recorded); false reopens a done one (both cleared).' }),
  })
  .meta({ id: 'PhotosTaskUpdate', description: 'The project and the photo of a task do not change.' });
export type TaskChanges = z.infer<typeof updateTaskBody>;

export const listTasksQuery = z.object({
  project: optionalIdQueryParam('Only tasks of this project.'),
  status: z
    .enum(TASK_STATUS_FILTERS)
    .default(DEFAULT_TASK_STATUS_FILTER)
    .meta({ description: `open (default: not closed, overdue ones included), done, overdue (open and due_at passed), all. Withdrawn tasks are never listed.` }),
  mine: mineQueryParam('1: only tasks assigned to the caller.'),
  page: integerQueryParam({ min: 1, max: TASKS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${TASKS_PER_PAGE} tasks per page.` }),
});

/** A list query in the domain's terms (from REST once parsed, from GraphQL as it is). */
export interface TaskListQuery {
  projectId?: number | undefined;
  status?: TaskStatusFilter | undefined;
  mine?: boolean | undefined;
  page?: number | undefined;
}

export function taskListQueryOf(raw: unknown): TaskListQuery {
  const query = parseInput(listTasksQuery, raw);
  return { projectId: query.project, status: query.status, mine: query.mine, page: query.page };
}
