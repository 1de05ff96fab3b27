import { LockMode, QueryOrder, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, parseInput, transactionWithAfterCommit, type FieldErrors } from '@tributary/kit';
import { pathId } from '../../list-query-params.js';
import type { PhotosPrincipal } from '../auth/index.js';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { NOT_A_MEMBER, User, teamMembersByIds } from '../teams/index.js';
import type { TaskEvent, TaskServiceOptions } from './task-events.js';
import { completionChange, type TaskStatusFilter } from './task-status.js';
import { Task } from './task.entity.js';
import { presentTask, type TaskPage } from './task.presenter.js';
import { TASKS_PER_PAGE, TASK_TITLE_MAX, createTaskBody, updateTaskBody, type NewTask, type TaskListQuery } from './task.validation.js';

const POPULATE = ['project', 'photo', 'photo.project', 'assignee', 'createdBy', 'closedBy'] as const;

export const PROJECT_OR_PHOTO = 'Give project_id or photo_id.';
export const NO_PROJECT = 'No project with this id in your team.';
export const PHOTO_NOT_FOUND = 'No photo with this id in your team.';
export const UNASSIGNED_PHOTO = 'Assign the photo to a project first, or give project_id.';
export const PHOTO_OF_OTHER_PROJECT = 'Must be a photo of project_id\'s project.';
export const TITLE_REQUIRED = 'This field is required without photo_id.';

/** The title a task made from a photo alone gets: the photo's description (first line), else "Follow up on photo N". */
export function defaultTaskTitle(photo: { id: number; description: string }): string {
  const line = photo.description.split('\n')[0]!.trim();
  return line ? line.slice(0, TASK_TITLE_MAX) : `Follow up on photo ${photo.id}`;
}

/** Tasks of the caller's team, for REST and GraphQL; callers have checked the scope. */
export class TaskService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: TaskServiceOptions,
  ) {}

  async create(principal: PhotosPrincipal, body: unknown): Promise<Task> {
    const input = parseInput(createTaskBody, body, { rootField: 'body' });
    const id = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const { project, photo } = await this.placeOf(tx, principal, input);
      const task = tx.create(Task, {
        team: principal.teamId,
        project,
        photo,
        title: input.title ?? defaultTaskTitle(photo!),
        description: input.description ?? '',
        assignee: input.assignee_id ?? null,
        dueAt: input.due_at ?? null,
        createdBy: principal.userId,
      });
      await tx.flush();
      return { result: task.id, afterCommit: await this.announce(tx, task, 'task.created') };
    });
    return this.reload(id);
  }

  /** The team's tasks, filtered; withdrawn tasks never appear. */
  async list(principal: PhotosPrincipal, query: TaskListQuery): Promise<TaskPage> {
    const page = query.page ?? 1;
    const status = query.status ?? 'open';
    const where: FilterQuery<Task> = {
      team: principal.teamId,
      withdrawnAt: null,
      ...(query.projectId !== undefined ? { project: query.projectId } : {}),
      ...(query.mine ? { assignee: principal.userId } : {}),
      ...statusWhere(status, new Date()),
    };
    const orderBy = status === 'done' ? { closedAt: QueryOrder.DESC, id: QueryOrder.DESC } : { dueAt: QueryOrder.ASC_NULLS_LAST, createdAt: QueryOrder.DESC, id: QueryOrder.DESC };
    const [items, total] = await this.em.findAndCount(Task, where, { populate: POPULATE, orderBy, limit: TASKS_PER_PAGE, offset: (page - 1) * TASKS_PER_PAGE });
    return { items, total, page, perPage: TASKS_PER_PAGE };
  }

  async get(principal: PhotosPrincipal, id: string | number): Promise<Task> {
    const task = await this.findVisible(principal, id);
    if (!task) throw new NotFoundError(`task ${String(id).slice(0, 40)}`);
    return task;
  }

  /** A task of the caller's team that is not withdrawn; anything else reads as absent. */
  async findVisible(principal: PhotosPrincipal, id: string | number): Promise<Task | null> {
    const taskId = pathId(id);
    if (taskId === null) return null;
    return this.em.findOne(Task, { id: taskId, team: principal.teamId, withdrawnAt: null }, { populate: POPULATE });
  }

  /** Edits, reassigns, closes (completed: true) or reopens (false); one event: task.closed when it closed, else task.updated. */
  async update(principal: PhotosPrincipal, id: string, body: unknown): Promise<Task> {
    const changes = parseInput(updateTaskBody, body, { rootField: 'body' });
    const taskId = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const task = await this.locked(tx, principal, id);
      if (changes.assignee_id) await this.checkAssignee(tx, principal, changes.assignee_id);
      const before = snapshot(task);
      if (changes.title !== undefined) task.title = changes.title;
      if (changes.description !== undefined) task.description = changes.description;
      if (changes.assignee_id !== undefined) task.assignee = changes.assignee_id === null ? null : tx.getReference(User, changes.assignee_id);
      if (changes.due_at !== undefined) task.dueAt = changes.due_at;
      const completion = completionChange(task.state(), changes.completed);
      if (completion === 'close') Object.assign(task, { closedAt: new Date(), closedBy: tx.getReference(User, principal.userId) });
      if (completion === 'reopen') Object.assign(task, { closedAt: null, closedBy: null });
      if (snapshot(task) === before) return { result: task.id };
      await tx.flush();
      return { result: task.id, afterCommit: await this.announce(tx, task, completion === 'close' ? 'task.closed' : 'task.updated') };
    });
    return this.reload(taskId);
  }

  /** Withdraws (soft-deletes) the task: it reads as gone from now on; answers it as withdrawn. */
  async withdraw(principal: PhotosPrincipal, id: string): Promise<Task> {
    const taskId = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const task = await this.locked(tx, principal, id);
      Object.assign(task, { withdrawnAt: new Date(), withdrawnBy: tx.getReference(User, principal.userId) });
      await tx.flush();
      return { result: task.id, afterCommit: await this.announce(tx, task, 'task.withdrawn') };
    });
    return this.reload(taskId);
  }

  /** Open tasks per project (the projects' `open_tasks` count). */
  async openCountsByProject(projectIds: readonly number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(projectIds.map((projectId) => [projectId, 0]));
    if (projectIds.length === 0) return counts;
    const rows = await this.em
      .getConnection()
      .execute<Array<{ project_id: number; count: string }>>(
        `select project_id, count(*) as count from tasks where closed_at is null and withdrawn_at is null and project_id in (${projectIds.map(() => '?').join(', ')}) group by project_id`,
        [...projectIds],
      );
    for (const row of rows) counts.set(Number(row.project_id), Number(row.count));
    return counts;
  }

  /** The project and photo a new task belongs to, or 422 naming each problem (assignee included). */
  private async placeOf(tx: EntityManager, principal: PhotosPrincipal, input: NewTask): Promise<{ project: Project; photo: Photo | null }> {
    const fields: FieldErrors = {};
    const photo = input.photo_id === undefined ? null : await tx.findOne(Photo, { id: input.photo_id, team: principal.teamId }, { populate: ['project'] });
    const project = input.project_id === undefined ? (photo?.project ?? null) : await tx.findOne(Project, { id: input.project_id, team: principal.teamId });
    if (input.photo_id === undefined && input.project_id === undefined) fields.project_id = [PROJECT_OR_PHOTO];
    if (input.photo_id !== undefined && !photo) fields.photo_id = [PHOTO_NOT_FOUND];
    else if (photo && input.project_id === undefined && !photo.project) fields.photo_id = [UNASSIGNED_PHOTO];
    else if (photo && project && photo.project?.id !== project.id) fields.photo_id = [PHOTO_OF_OTHER_PROJECT];
    if (input.project_id !== undefined && !project) fields.project_id = [NO_PROJECT];
    if (input.title === undefined && input.photo_id === undefined) fields.title = [TITLE_REQUIRED];
    if (input.assignee_id && !(await teamMembersByIds(tx, principal.teamId, [input.assignee_id])).has(input.assignee_id)) fields.assignee_id = [NOT_A_MEMBER];
    if (Object.keys(fields).length > 0 || !project) throw new ValidationError(fields);
    return { project, photo };
  }

  private async checkAssignee(tx: EntityManager, principal: PhotosPrincipal, userId: number): Promise<void> {
    if (!(await teamMembersByIds(tx, principal.teamId, [userId])).has(userId)) throw new ValidationError({ assignee_id: [NOT_A_MEMBER] });
  }

  /** The visible task, locked for the change (concurrent closes see each other). */
  private async locked(tx: EntityManager, principal: PhotosPrincipal, id: string): Promise<Task> {
    const taskId = pathId(id);
    const task = taskId === null ? null : await tx.findOne(Task, { id: taskId, team: principal.teamId, withdrawnAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!task) throw new NotFoundError(`task ${id.slice(0, 40)}`);
    return task;
  }

  private async reload(id: number): Promise<Task> {
    return this.em.findOneOrFail(Task, id, { populate: POPULATE, refresh: true });
  }

  private async announce(tx: EntityManager, task: Task, event: TaskEvent) {
    if (!this.options.events) return undefined;
    const fresh = await tx.findOneOrFail(Task, task.id, { populate: POPULATE, refresh: true });
    return this.options.events.emit(tx, fresh.team.id, event, presentTask(fresh, this.options.urls));
  }
}

function statusWhere(status: TaskStatusFilter, now: Date): { closedAt?: null | { $ne: null }; dueAt?: { $lt: Date } } {
  if (status === 'open') return { closedAt: null };
  if (status === 'done') return { closedAt: { $ne: null } };
  if (status === 'overdue') return { closedAt: null, dueAt: { $lt: now } };
  return {};
}

/** The editable state, to tell a real change from naming the current values again. */
function snapshot(task: Task): string {
  return JSON.stringify([task.title, task.description, task.assignee?.id ?? null, task.dueAt?.getTime() ?? null, task.closedAt?.getTime() ?? null]);
}
