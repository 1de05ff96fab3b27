import { enumMapping } from '@tributary/kit';
import { definedOnly, idInput } from '../../graphql-ids.js';
import type { CreatePhotosTaskInput, PhotosTaskStatus, PhotosTaskStatusFilter, Resolvers, UpdatePhotosTaskInput } from '../../graphql/resolvers-types.js';
import { isOverdue, taskStatus, type TaskStatus, type TaskStatusFilter } from './task-status.js';
import { taskListQueryOf, type TaskListQuery } from './task.validation.js';

const statusFilter = enumMapping<TaskStatusFilter, PhotosTaskStatusFilter>({ open: 'OPEN', done: 'DONE', overdue: 'OVERDUE', all: 'ALL' });
const status = enumMapping<TaskStatus, PhotosTaskStatus>({ open: 'OPEN', done: 'DONE', withdrawn: 'WITHDRAWN' });

interface ListArgs {
  projectId?: string | null;
  status?: PhotosTaskStatusFilter | null;
  mine?: boolean | null;
  page?: number | null;
}

/** GraphQL list arguments through the REST query's schema: the same checks and 422 field names. */
function listQueryOf(args: ListArgs): TaskListQuery {
  return taskListQueryOf({
    project: args.projectId ?? undefined,
    status: args.status ? statusFilter.fromGraphql(args.status) : undefined,
    mine: args.mine ? '1' : undefined,
    page: args.page == null ? undefined : String(args.page),
  });
}

/** The GraphQL inputs as the REST bodies, so both are checked by one schema and errors name the REST fields. */
function createBody(input: CreatePhotosTaskInput) {
  return definedOnly({
    photo_id: input.photoId == null ? undefined : idInput(input.photoId),
    project_id: input.projectId == null ? undefined : idInput(input.projectId),
    title: input.title ?? undefined,
    description: input.description ?? undefined,
    assignee_id: input.assigneeId == null ? undefined : idInput(input.assigneeId),
    due_at: input.dueAt ?? undefined,
  });
}

function updateBody(input: UpdatePhotosTaskInput) {
  return definedOnly({
    title: input.title ?? undefined,
    description: input.description ?? undefined,
    assignee_id: input.assigneeId === undefined ? undefined : input.assigneeId === null ? null : idInput(input.assigneeId),
    due_at: input.dueAt,
    completed: input.completed ?? undefined,
  });
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosTask's parent is the entity).
export const taskResolvers = {
  Query: {
    photosTask: async (_parent, args, ctx) => ctx.tasks.findVisible(await ctx.principalWith('tasks:read'), args.id),
  },
  Mutation: {
    createPhotosTask: async (_parent, { input }, ctx) => ctx.tasks.create(await ctx.principalWith('tasks:write'), createBody(input)),
    updatePhotosTask: async (_parent, { id, input }, ctx) => ctx.tasks.update(await ctx.principalWith('tasks:write'), id, updateBody(input)),
    withdrawPhotosTask: async (_parent, { id }, ctx) => ctx.tasks.withdraw(await ctx.principalWith('tasks:write'), id),
  },
  PhotosTeam: {
    tasks: async (_team, args, ctx) => ctx.tasks.list(await ctx.principalWith('tasks:read'), listQueryOf(args)),
  },
  PhotosProject: {
    tasks: async (project, args, ctx) => ctx.tasks.list(await ctx.principalWith('tasks:read'), { ...listQueryOf(args), projectId: project.id }),
  },
  PhotosTask: {
    id: (task) => String(task.id),
    status: (task) => status(taskStatus(task.state())),
    overdue: (task) => isOverdue(task.state(), new Date()),
    assignee: (task) => task.assignee ?? null,
    dueAt: (task) => task.dueAt?.toISOString() ?? null,
    photo: (task) => task.photo ?? null,
    createdBy: (task) => task.createdBy ?? null,
    createdAt: (task) => task.createdAt.toISOString(),
    updatedAt: (task) => task.updatedAt.toISOString(),
    closedAt: (task) => task.closedAt?.toISOString() ?? null,
    closedBy: (task) => (task.closedAt ? (task.closedBy ?? null) : null),
    withdrawnAt: (task) => task.withdrawnAt?.toISOString() ?? null,
  },
} satisfies Resolvers;
