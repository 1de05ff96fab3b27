import { EntityRepository } from '@mikro-orm/postgresql';
import type { Team } from './team.entity.js';
import { TeamMembership } from './team-membership.entity.js';

export class TeamRepository extends EntityRepository<Team> {
  membership(teamId: number, userId: number): Promise<TeamMembership | null> {
    return this.em.findOne(TeamMembership, { team: teamId, user: userId }, { populate: ['team', 'user'] });
  }
}
