import { defineEntity, p } from '@mikro-orm/core';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { Team, User } from '../teams/index.js';
import type { TaskState } from './task-status.js';

/**
 * A task of one project, maybe pointing at a photo (spec: "A task may point at a photo and records who closed it and
 * when"). Closed: closedAt/closedBy set. Withdrawn (DELETE): withdrawnAt/withdrawnBy set, and the task reads as gone.
 */
export const TaskSchema = defineEntity({
  name: 'Task',
  tableName: 'tasks',
  indexes: [{ properties: ['team', 'project'] }, { properties: ['team', 'assignee'] }, { properties: ['photo'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    photo: () => p.manyToOne(Photo).deleteRule('set null').nullable(),
    title: p.string().length(191),
    description: p.text().default(''),
    assignee: () => p.manyToOne(User).deleteRule('set null').nullable(),
    dueAt: p.datetime().nullable(),
    createdBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    closedAt: p.datetime().nullable(),
    closedBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    withdrawnAt: p.datetime().nullable(),
    withdrawnBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Task extends TaskSchema.class {
  state(): TaskState {
    return { closedAt: this.closedAt ?? null, withdrawnAt: this.withdrawnAt ?? null, dueAt: this.dueAt ?? null };
  }
}
TaskSchema.setClass(Task);
