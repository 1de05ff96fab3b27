import type { EntityManager } from '@mikro-orm/postgresql';
import type { PhotosPrincipal } from '../auth/index.js';
import { Team } from './team.entity.js';

export class TeamService {
  constructor(private readonly em: EntityManager) {}

  getTeam(principal: PhotosPrincipal): Promise<Team> {
    return this.em.getRepository(Team).findOneOrFail({ id: principal.teamId });
  }

  /** Entity resolution: only the team the token is scoped to is visible; anything else reads as absent. */
  async findVisibleTeam(principal: PhotosPrincipal, id: string): Promise<Team | null> {
    if (String(principal.teamId) !== id) return null;
    return this.em.getRepository(Team).findOne({ id: principal.teamId });
  }
}
