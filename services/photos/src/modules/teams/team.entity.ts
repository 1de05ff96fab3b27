import { defineEntity, p } from '@mikro-orm/core';
import { TeamRepository } from './team.repository.js';

/** A team (the company account); tokens are scoped to one team. */
export const TeamSchema = defineEntity({
  name: 'Team',
  tableName: 'teams',
  repository: () => TeamRepository,
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(191),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Team extends TeamSchema.class {}
TeamSchema.setClass(Team);
