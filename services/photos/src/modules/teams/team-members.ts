// Which of some user ids are members of a team (assignees of checklist items and tasks must be), in one query.
import type { EntityManager } from '@mikro-orm/postgresql';
import { TeamMembership } from './team-membership.entity.js';
import type { User } from './user.entity.js';

export const NOT_A_MEMBER = 'No member with this id in your team.';

/** The team's members among `userIds`, by id (ids of non-members are absent). */
export async function teamMembersByIds(em: EntityManager, teamId: number, userIds: readonly number[]): Promise<Map<number, User>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const memberships = await em.find(TeamMembership, { team: teamId, user: { $in: ids } }, { populate: ['user'] });
  return new Map(memberships.map((membership) => [membership.user.id, membership.user]));
}
