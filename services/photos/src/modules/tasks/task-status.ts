// A task's status, derived from its timestamps (README Decisions "Task status"). Pure.
//   open       not closed, not withdrawn; overdue when its due_at has passed (overdue is a kind of open, not a state)
//   done       closed (completed: true), closed_at and closed_by recorded
//   withdrawn  DELETE: gone from every list and read (404), kept for the record
// Transitions by PATCH `completed`: open → done (close), done → open (reopen: closed_at/by cleared); true on a done task
// or false on an open one changes nothing (the first closer is kept).

export const TASK_STATUSES = ['open', 'done', 'withdrawn'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The list's status filter (spec: open, done, overdue, all). */
export const TASK_STATUS_FILTERS = ['open', 'done', 'overdue', 'all'] as const;
export type TaskStatusFilter = (typeof TASK_STATUS_FILTERS)[number];
/** What GET /tasks lists when no status is asked for: the work still to do. */
export const DEFAULT_TASK_STATUS_FILTER: TaskStatusFilter = 'open';

export interface TaskState {
  closedAt: Date | null;
  withdrawnAt: Date | null;
  dueAt: Date | null;
}

export function taskStatus(task: TaskState): TaskStatus {
  if (task.withdrawnAt) return 'withdrawn';
  return task.closedAt ? 'done' : 'open';
}

/** Open with a due time in the past (strictly before `now`). */
export function isOverdue(task: TaskState, now: Date): boolean {
  return taskStatus(task) === 'open' && task.dueAt !== null && task.dueAt.getTime() < now.getTime();
}

/** Whether a list with `filter` shows the task (withdrawn tasks never). */
export function matchesStatusFilter(task: TaskState, filter: TaskStatusFilter, now: Date): boolean {
  const status = taskStatus(task);
  if (status === 'withdrawn') return false;
  if (filter === 'overdue') return isOverdue(task, now);
  return filter === 'all' || filter === status;
}

export type CompletionChange = 'close' | 'reopen' | null;

/** What PATCH `completed` does to the task. */
export function completionChange(task: TaskState, completed: boolean | undefined): CompletionChange {
  if (completed === undefined) return null;
  const status = taskStatus(task);
  if (completed && status === 'open') return 'close';
  if (!completed && status === 'done') return 'reopen';
  return null;
}
