import type { EntityManager } from '@mikro-orm/postgresql';
import type { PhotosPrincipal } from '../auth/index.js';
import { Team } from '../teams/index.js';
import { Project } from './project.entity.js';
import { boundingBox, decideProjectMatch, searchDistanceM, usableFix, type CaptureFix, type MatchableProject, type MatchDecision } from './project-matching.js';
import { DEFAULT_PROJECT_STATUS, PROJECTS_PER_PAGE, type ProjectListQuery } from './project.validation.js';

export interface ProjectPage {
  items: Project[];
  total: number;
  page: number;
  perPage: number;
}

/** The project domain, for REST and GraphQL alike; callers have checked the caller's scope (projects:read). */
export class ProjectService {
  constructor(private readonly em: EntityManager) {}

  /** Projects of the caller's team (active by default), newest activity first. */
  async list(principal: PhotosPrincipal, query: ProjectListQuery): Promise<ProjectPage> {
    const page = query.page ?? 1;
    const { items, total } = await this.em.getRepository(Project).list({
      teamId: principal.teamId,
      q: query.q || undefined,
      status: query.status ?? DEFAULT_PROJECT_STATUS,
      page,
      perPage: PROJECTS_PER_PAGE,
    });
    return { items, total, page, perPage: PROJECTS_PER_PAGE };
  }

  /** The GPS matching decision for a fix in the team (see project-matching.ts): one indexed query, then pure geometry. */
  async matchCapture(teamId: number, fix: CaptureFix | null | undefined): Promise<MatchDecision<Project>> {
    const team = await this.em.findOneOrFail(Team, teamId);
    const usable = usableFix(fix);
    const projects = usable
      ? await this.em.getRepository(Project).activeWithCoordinatesIn(teamId, boundingBox(usable, searchDistanceM(usable, team.accuracyThresholdM)))
      : [];
    return decideProjectMatch(fix, projects.map(matchable), team.accuracyThresholdM);
  }

  /** Entity resolution: a project is visible only inside its own team; anything else reads as absent. */
  async findVisibleProject(principal: PhotosPrincipal, id: string): Promise<Project | null> {
    if (!/^\d{1,10}$/.test(id)) return null;
    return this.em.getRepository(Project).findOne({ id: Number(id), team: principal.teamId });
  }
}

function matchable(project: Project): MatchableProject<Project> {
  // activeWithCoordinatesIn returns only projects with coordinates.
  return { project, lat: project.latitude!, lng: project.longitude!, radiusM: project.radiusM };
}
