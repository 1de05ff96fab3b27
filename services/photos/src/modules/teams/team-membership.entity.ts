import { defineEntity, p } from '@mikro-orm/core';
import { Team } from './team.entity.js';
import { User } from './user.entity.js';

/** A user's role in one team. Role names beyond these are not shown in the spec; decided here. */
export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TeamMembershipSchema = defineEntity({
  name: 'TeamMembership',
  tableName: 'team_memberships',
  uniques: [{ properties: ['team', 'user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    role: p.enum(TEAM_ROLES),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class TeamMembership extends TeamMembershipSchema.class {}
TeamMembershipSchema.setClass(TeamMembership);
