import type { UploadLimits } from '../../media-config.js';
import type { SignedInUser } from '../auth/index.js';
import type { Project, ProjectService } from '../projects/index.js';
import type { Team, TeamMembership } from '../teams/index.js';
import type { ChecklistSource } from './checklist-source.js';
import { tagsInUse, type TagSource } from './tag-source.js';


export interface BootstrapServiceOptions {
  limits: UploadLimits;
  /** Where bootstrap's `tags` come from (registered in service.ts by the module that stores tags). */
  tagSources?: readonly TagSource[];
  /** Where bootstrap's `checklists` come from (the checklists module); none: `[]`. */
  checklistSource?: ChecklistSource | undefined;
}

/** Everything the capture app needs on first run, read with one query per table. */
export interface Bootstrap {
  membership: TeamMembership;
  team: Team;
  limits: UploadLimits;
  projects: Project[];
  tags: string[];
  /** The team's open checklists on active projects, as GET /api/v1/checklists/{checklist} answers each. */
  checklists: object[];
}

/**
 * GET /api/v1/bootstrap. The user, role and team (with its settings) are the ones authentication already loaded; the
 * projects are one query; the tags one query per source: the number of queries never depends on the number of projects.
 */
export class BootstrapService {
  private readonly limits: UploadLimits;
  private readonly tagSources: readonly TagSource[];
  private readonly checklistSource: ChecklistSource | undefined;

  constructor(
    private readonly projects: ProjectService,
    options: BootstrapServiceOptions,
  ) {
    this.limits = options.limits;
    this.tagSources = options.tagSources ?? [];
    this.checklistSource = options.checklistSource;
  }

  async bootstrap({ membership, principal }: SignedInUser): Promise<Bootstrap> {
    const projects = await this.projects.allActive(principal);
    const tags = await tagsInUse(this.tagSources, principal.teamId);
    const checklists = (await this.checklistSource?.openChecklists(principal.teamId)) ?? [];
    return { membership, team: membership.team, limits: this.limits, projects, tags, checklists };
  }
}
