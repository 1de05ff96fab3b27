// The task routes as OpenAPI operations; task.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { userRef } from '../teams/index.js';
import { photoResource } from '../photos/index.js';
import { TASK_STATUSES } from './task-status.js';
import { TASKS_PER_PAGE, createTaskBody, listTasksQuery, updateTaskBody } from './task.validation.js';

export const taskResource = z
  .object({
    id: z.number().int(),
    project: z.object({ id: z.number().int(), name: z.string() }),
    title: z.string(),
    description: z.string(),
    status: z.enum(TASK_STATUSES).meta({ description: 'open, done (closed), or withdrawn (only in the DELETE answer and the task.withdrawn webhook).' }),
    overdue: z.boolean().meta({ description: 'Open and due_at has passed.' }),
    assignee: userRef.nullable(),
    due_at: z.iso.datetime().nullable(),
    photo: photoResource.nullable().meta({ description: 'The photo the task points at (the full photo resource); null when none.' }),
    created_by: userRef.nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    closed_at: z.iso.datetime().nullable(),
    closed_by: userRef.nullable(),
    withdrawn_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'PhotosTask' });

const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosTaskPageMeta' });

export const taskResponse = z.object({ data: taskResource });
export const taskListResponse = z.object({ data: z.array(taskResource), meta: pageMeta });
const taskPath = z.object({ task: z.string().meta({ description: 'Task id.' }) });

const route = (summary: string, description: string) => ({ summary, description, tags: ['Tasks'], security: ACCESS_TOKEN_SECURITY });

export const taskApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/tasks`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listTasks',
      ...route("List the team's tasks", `status: open (default), done, overdue, all; withdrawn tasks never appear. Sorted by due_at (soonest first, tasks without one last), then newest; status=done: most recently closed first. ${TASKS_PER_PAGE} per page. Needs \`tasks:read\`.`),
      requestParams: { query: listTasksQuery },
      responses: { '200': { description: 'One page of tasks.', content: { 'application/json': { schema: taskListResponse } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/tasks/:task`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getTask',
      ...route('One task with the photo it points at', 'Another team\'s task, a withdrawn one, an unknown id or one that is not digits: 404. Needs `tasks:read`.'),
      requestParams: { path: taskPath },
      responses: { '200': { description: 'The task.', content: { 'application/json': { schema: taskResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/tasks`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createTask',
      ...route('Create a task (photo_id alone suffices)', 'With `photo_id` the project is the photo\'s (an unassigned photo: 422) and the title defaults to the photo\'s description or "Follow up on photo <id>"; without it, `project_id` and `title` are required. Answers 201 with the task. Needs `tasks:write`.'),
      requestBody: { required: true, content: { 'application/json': { schema: createTaskBody } } },
      responses: { '201': { description: 'The new task.', content: { 'application/json': { schema: taskResponse } } } },
    },
  }),
  update: defineApiRoute({
    method: 'patch',
    path: `${REST_BASE}/tasks/:task`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'updateTask',
      ...route('Edit, reassign, close or reopen a task', '`completed: true` closes an open task and records closed_by and closed_at; `completed: false` reopens a done one. Needs `tasks:write`.'),
      requestParams: { path: taskPath },
      requestBody: { required: true, content: { 'application/json': { schema: updateTaskBody } } },
      responses: { '200': { description: 'The task as it now is.', content: { 'application/json': { schema: taskResponse } } } },
    },
  }),
  withdraw: defineApiRoute({
    method: 'delete',
    path: `${REST_BASE}/tasks/:task`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'withdrawTask',
      ...route('Withdraw a task', 'Soft: the task is kept (withdrawn_at, withdrawn by the caller) but reads as 404 from then on and is never listed. Answers 200 with the task as withdrawn (status `withdrawn`); a second DELETE is 404. Needs `tasks:write`.'),
      requestParams: { path: taskPath },
      responses: { '200': { description: 'The withdrawn task.', content: { 'application/json': { schema: taskResponse } } } },
    },
  }),
};
