import { defineEntity, p } from '@mikro-orm/core';
import { Customer } from '../customers/index.js';
import { Team } from '../teams/index.js';
import { ProjectRepository } from './project.repository.js';

export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A project (job site). Coordinates are optional; without them the project is never auto-matched. */
export const ProjectSchema = defineEntity({
  name: 'Project',
  tableName: 'projects',
  repository: () => ProjectRepository,
  uniques: [
    // An Idempotency-Key is used once per team; NULLs (creates without a key) never collide.
    { name: 'projects_team_id_idempotency_key_unique', properties: ['team', 'idempotencyKey'] },
  ],
  indexes: [
    { properties: ['team', 'status', 'lastActivityAt'] },
    { properties: ['customer'] },
    // GPS matching's candidate query (ProjectRepository.activeWithCoordinatesIn): the team by equality, then a
    // latitude range with longitude checked inside the index. Partial: only projects that can be matched at all.
    // Plain btree, so embedded and external PostgreSQL alike need no extension (see the README's Decisions table).
    {
      name: 'projects_matchable_team_id_latitude_longitude_index',
      properties: ['team', 'latitude', 'longitude'],
      where: { status: 'active', latitude: { $ne: null }, longitude: { $ne: null } },
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    name: p.string().length(191),
    status: p.enum(PROJECT_STATUSES).default('active'),
    address: p.string().length(500).nullable(),
    /** The customer the job is for, if linked (a customer of the same team). */
    customer: () => p.manyToOne(Customer).deleteRule('set null').nullable(),
    latitude: p.float().columnType('double precision').nullable(),
    longitude: p.float().columnType('double precision').nullable(),
    /** Match radius around the coordinates, metres. */
    radiusM: p.float().columnType('double precision').default(150),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    lastActivityAt: p.datetime().onCreate(() => new Date()),
    // The create's Idempotency-Key and the SHA-256 of its normalised body: a retry with the same key and body returns
    // this project instead of a second one (project.idempotency.ts).
    idempotencyKey: p.string().length(255).nullable(),
    idempotencyFingerprint: p.string().length(64).nullable(),
  },
});

export class Project extends ProjectSchema.class {
  coordinates(): { lat: number; lng: number; radiusM: number } | null {
    if (this.latitude == null || this.longitude == null) return null;
    return { lat: this.latitude, lng: this.longitude, radiusM: this.radiusM };
  }
}
ProjectSchema.setClass(Project);
