// The task as REST answers it and webhooks carry it: one presenter for both (the photo: the full photo resource).
import type { z } from 'zod';
import { presentPhoto, type MediaUrlSigner } from '../photos/index.js';
import { presentUser } from '../teams/index.js';
import { isOverdue, taskStatus } from './task-status.js';
import type { Task } from './task.entity.js';
import type { taskListResponse, taskResource } from './task.openapi.js';

export interface TaskPage {
  items: Task[];
  total: number;
  page: number;
  perPage: number;
}

/** `now` decides `overdue`; a list presents all its tasks with the same instant. */
export function presentTask(task: Task, urls: MediaUrlSigner, now = new Date()): z.input<typeof taskResource> {
  const state = task.state();
  return {
    id: task.id,
    project: { id: task.project.id, name: task.project.name },
    title: task.title,
    description: task.description,
    status: taskStatus(state),
    overdue: isOverdue(state, now),
    assignee: presentUser(task.assignee),
    due_at: task.dueAt?.toISOString() ?? null,
    photo: task.photo ? presentPhoto(task.photo, urls) : null,
    created_by: presentUser(task.createdBy),
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt.toISOString(),
    closed_at: task.closedAt?.toISOString() ?? null,
    closed_by: task.closedAt ? presentUser(task.closedBy) : null,
    withdrawn_at: task.withdrawnAt?.toISOString() ?? null,
  };
}

export function presentTaskPage(page: TaskPage, urls: MediaUrlSigner): z.input<typeof taskListResponse> {
  const now = new Date();
  return {
    data: page.items.map((task) => presentTask(task, urls, now)),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
