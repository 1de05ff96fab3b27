import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { ProjectRepository } from './project.repository.js';

export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A project (job site). Coordinates are optional; without them the project is never auto-matched. */
export const ProjectSchema = defineEntity({
  name: 'Project',
  tableName: 'projects',
  repository: () => ProjectRepository,
  indexes: [{ properties: ['team', 'status', 'lastActivityAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    name: p.string().length(191),
    status: p.enum(PROJECT_STATUSES).default('active'),
    address: p.string().length(500).nullable(),
    latitude: p.float().columnType('double precision').nullable(),
    longitude: p.float().columnType('double precision').nullable(),
    /** Match radius around the coordinates, metres. */
    radiusM: p.float().columnType('double precision').default(150),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    lastActivityAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Project extends ProjectSchema.class {
  coordinates(): { lat: number; lng: number; radiusM: number } | null {
    if (this.latitude == null || this.longitude == null) return null;
    return { lat: this.latitude, lng: this.longitude, radiusM: this.radiusM };
  }
}
ProjectSchema.setClass(Project);
