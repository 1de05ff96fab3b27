// Tasks of a team's projects (spec: "A task may point at a photo and records who closed it and when"): list with status
// filters, create from a photo alone, edit, close/reopen, withdraw.
import { TaskSchema } from './task.entity.js';

export { Task, TaskSchema } from './task.entity.js';
export { TaskService } from './task.service.js';
export type { TaskEvent, TaskEventSink, TaskServiceOptions } from './task-events.js';
export { DEFAULT_TASK_STATUS_FILTER, TASK_STATUSES, TASK_STATUS_FILTERS, type TaskStatus, type TaskStatusFilter } from './task-status.js';
export { TASKS_PER_PAGE } from './task.validation.js';
export { presentTask, presentTaskPage, type TaskPage } from './task.presenter.js';
export { taskCountSource } from './task-project-counts.js';
export { taskRoutes } from './task.routes.js';
export { taskApi, taskResource } from './task.openapi.js';
export { taskResolvers } from './task.resolvers.js';

export const taskEntities = [TaskSchema];
