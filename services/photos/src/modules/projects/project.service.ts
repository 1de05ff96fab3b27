import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '@tributary/kit';
import { requireAbility, type PhotosPrincipal } from '../auth/auth.service.js';
import { Project } from './project.entity.js';
import { PROJECTS_PER_PAGE, listProjectsQuery } from './project.validation.js';

export interface ProjectPage {
  items: Project[];
  total: number;
  page: number;
  perPage: number;
}

export class ProjectService {
  constructor(private readonly em: EntityManager) {}

  /** Projects of the caller's team (active by default), newest activity first. */
  async list(principal: PhotosPrincipal, query: unknown): Promise<ProjectPage> {
    requireAbility(principal, 'projects:read');
    const input = parseInput(listProjectsQuery, query);
    const { items, total } = await this.em.getRepository(Project).list({
      teamId: principal.teamId,
      q: input.q || undefined,
      status: input.status,
      page: input.page,
      perPage: PROJECTS_PER_PAGE,
    });
    return { items, total, page: input.page, perPage: PROJECTS_PER_PAGE };
  }

  /** Entity resolution: a project is visible only inside its own team; anything else reads as absent. */
  async findVisibleProject(principal: PhotosPrincipal, id: string): Promise<Project | null> {
    requireAbility(principal, 'projects:read');
    if (!/^\d{1,10}$/.test(id)) return null;
    return this.em.getRepository(Project).findOne({ id: Number(id), team: principal.teamId });
  }
}
