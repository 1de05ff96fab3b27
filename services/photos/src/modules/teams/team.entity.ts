import { defineEntity, p } from '@mikro-orm/core';
import { TeamRepository } from './team.repository.js';

/** Team settings' defaults (not shown in the spec; decided here, see the README's Decisions table). */
export const DEFAULT_MATCH_RADIUS_M = 150;
export const DEFAULT_ACCURACY_THRESHOLD_M = 50;

/** A team (the company account); tokens are scoped to one team. */
export const TeamSchema = defineEntity({
  name: 'Team',
  tableName: 'teams',
  repository: () => TeamRepository,
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(191),
    /** Radius given to a new project whose creator names none, metres (team setting). */
    defaultMatchRadiusM: p.float().columnType('double precision').default(DEFAULT_MATCH_RADIUS_M),
    /** A fix whose accuracy is worse (larger) than this is never matched: reason low_accuracy (team setting). */
    accuracyThresholdM: p.float().columnType('double precision').default(DEFAULT_ACCURACY_THRESHOLD_M),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Team extends TeamSchema.class {}
TeamSchema.setClass(Team);
