import type { UploadLimits } from '../../media-config.js';
import type { SignedInUser } from '../auth/index.js';
import type { Project, ProjectService } from '../projects/index.js';
import type { Team, TeamMembership } from '../teams/index.js';
import { tagsInUse, type TagSource } from './tag-source.js';


export interface BootstrapServiceOptions {
  limits: UploadLimits;
  /** Where bootstrap's `tags` come from (registered in service.ts by the module that stores tags). */
  tagSources?: readonly TagSource[];
}

/** Everything the capture app needs on first run, read with one query per table. */
export interface Bootstrap {
  membership: TeamMembership;
  team: Team;
  limits: UploadLimits;
  projects: Project[];
  tags: string[];
  /** Checklists arrive with part 2; the key is kept so the app's parser never changes. */
  checklists: never[];
}

/**
 * GET /api/v1/bootstrap. The user, role and team (with its settings) are the ones authentication already loaded; the
 * projects are one query; the tags one query per source: the number of queries never depends on the number of projects.
 */
export class BootstrapService {
  private readonly limits: UploadLimits;
  private readonly tagSources: readonly TagSource[];

  constructor(
    private readonly projects: ProjectService,
    options: BootstrapServiceOptions,
  ) {
    this.limits = options.limits;
    this.tagSources = options.tagSources ?? [];
  }

  async bootstrap({ membership, principal }: SignedInUser): Promise<Bootstrap> {
    const projects = await this.projects.allActive(principal);
    const tags = await tagsInUse(this.tagSources, principal.teamId);
    return { membership, team: membership.team, limits: this.limits, projects, tags, checklists: [] };
  }
}
