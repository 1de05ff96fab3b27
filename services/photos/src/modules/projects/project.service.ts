import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, checkInput, transactionWithAfterCommit } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Customer } from '../customers/index.js';
import { Team } from '../teams/index.js';
import { mergedCounts, type ProjectCountSource } from './project-counts.js';
import type { ProjectEventSink } from './project-events.js';
import { presentProject } from './project.presenter.js';
import { Project } from './project.entity.js';
import type { MatchableProjectRow } from './project.repository.js';
import { createFingerprint, idempotencyKeyReused, lockIdempotencyKey, parseIdempotencyKey } from './project.idempotency.js';
import {
  boundingBox, decideProjectMatch, searchDistanceM, usableFix,
  type CaptureFix, type MatchCandidate, type MatchableProject, type MatchDecision, type UsableFix,
} from './project-matching.js';
import {
  DEFAULT_PROJECT_STATUS, PROJECTS_PER_PAGE, createProjectBody, newProjectFrom,
  type NewProject, type ProjectListQuery,
} from './project.validation.js';

export const NO_SUCH_CUSTOMER = 'No customer with this id in your team.';

/** Candidates a nearby answer lists, nearest first (the decision itself always weighs every candidate). */
export const NEARBY_CANDIDATES_MAX = 10;

export interface ProjectPage {
  items: Project[];
  total: number;
  page: number;
  perPage: number;
}

/** What a create produced: the project, and whether an earlier create with the same Idempotency-Key made it. */
export interface ProjectCreation {
  project: Project;
  replayed: boolean;
}

/** One project with the counts its modules report (`{ photos: 3, … }`). */
export interface ProjectWithCounts {
  project: Project;
  counts: Record<string, number>;
}

/** A candidate of a fix's decision (its project, distance and whether it could contain the fix). */
export type ProjectMatchCandidate = MatchCandidate<Project>;

/** GET /projects/nearby: the decision (with the nearest candidates), the fix as weighed and the threshold used. */
export interface NearbyProjects {
  match: MatchDecision<Project>;
  /** The fix as weighed; null when it is not one (no_fix). */
  fix: UsableFix | null;
  accuracyThresholdM: number;
}

export interface ProjectServiceOptions {
  /** What GET /projects/{project} counts (registered in service.ts by the modules that own the counted records). */
  countSources?: readonly ProjectCountSource[];
  /** Where project.created goes (the team's webhooks); none: nothing is announced. */
  events?: ProjectEventSink | undefined;
}

/** An idempotent create's key and the fingerprint of its body; both null for a create without a key. */
interface Idempotency {
  key: string | null;
  fingerprint: string | null;
}

/** The project domain, for REST and GraphQL alike; callers have checked the caller's scope (projects:read/write). */
export class ProjectService {
  private readonly countSources: readonly ProjectCountSource[];
  private readonly events: ProjectEventSink | undefined;

  constructor(
    private readonly em: EntityManager,
    options: ProjectServiceOptions = {},
  ) {
    this.countSources = options.countSources ?? [];
    this.events = options.events;
  }

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

  /** Every active project of the caller's team (with or without coordinates), newest activity first. */
  allActive(principal: PhotosPrincipal): Promise<Project[]> {
    return this.em.getRepository(Project).allActive(principal.teamId);
  }

  /**
   * Creates a project in the caller's team from the REST body shape (checked: every problem in one 422). The radius
   * defaults to the team's default_match_radius_m. With an Idempotency-Key already used in the team: the same
   * (normalised) body returns the earlier project (`replayed`), another body is a 422 on the key. A new project is
   * announced as project.created (a replay is not), dispatched after the commit.
   */
  async create(principal: PhotosPrincipal, body: unknown, options: { idempotencyKey?: unknown } = {}): Promise<ProjectCreation> {
    const { key, fields } = parseIdempotencyKey(options.idempotencyKey);
    const checked = checkInput(createProjectBody, body ?? {}, { rootField: 'body' });
    // A malformed key and the body's problems in one 422.
    if (!checked.success || Object.keys(fields).length > 0) throw new ValidationError({ ...fields, ...(checked.success ? {} : checked.fields) });
    const draft = newProjectFrom(checked.data);
    const idempotency: Idempotency = { key: key ?? null, fingerprint: key === undefined ? null : createFingerprint(draft) };
    return transactionWithAfterCommit<ProjectCreation>(this.em, async (tx) => {
      const earlier = await this.earlierCreate(tx, principal.teamId, idempotency);
      if (earlier) return { result: { project: earlier, replayed: true } };
      const project = await this.insert(tx, principal.teamId, draft, idempotency);
      const announced = await this.events?.emit(tx, principal.teamId, 'project.created', presentProject(project));
      return { result: { project, replayed: false }, afterCommit: announced };
    });
  }

  /** One project of the caller's team with its counts; another team's, unknown or a malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string): Promise<ProjectWithCounts> {
    const project = await this.findVisibleProject(principal, id);
    if (!project) throw new NotFoundError(`project ${id.slice(0, 40)}`);
    await this.withCustomers([project]);
    return { project, counts: await this.countsOf(project) };
  }

  /** What the registered count sources report for a project (empty when none is registered). */
  countsOf(project: Project): Promise<Record<string, number>> {
    return mergedCounts(this.countSources, project.team.id, project.id);
  }

  /**
   * The GPS matching decision for a fix in the team (see project-matching.ts): one indexed query, then pure geometry.
   * The decision weighs every candidate; its `candidates` are the nearest NEARBY_CANDIDATES_MAX.
   */
  async matchCapture(teamId: number, fix: CaptureFix | null | undefined): Promise<MatchDecision<Project>> {
    return this.decide(await this.em.findOneOrFail(Team, teamId), fix);
  }

  /** GET /projects/nearby: the same decision as an upload's, with the threshold used and the nearest candidates. */
  async nearby(principal: PhotosPrincipal, fix: CaptureFix): Promise<NearbyProjects> {
    const team = await this.em.findOneOrFail(Team, principal.teamId);
    const match = await this.decide(team, fix);
    await this.withCustomers([...(match.decision === 'matched' ? [match.project] : []), ...match.candidates.map((candidate) => candidate.project)]);
    return { match, fix: usableFix(fix), accuracyThresholdM: team.accuracyThresholdM };
  }

  /** Loads the linked customers the project resource names (one query for all, none when none is linked). */
  private async withCustomers(projects: Project[]): Promise<void> {
    if (projects.some((project) => project.customer)) await this.em.populate(projects, ['customer']);
  }

  /** Entity resolution: a project is visible only inside its own team; anything else reads as absent. */
  async findVisibleProject(principal: PhotosPrincipal, id: string): Promise<Project | null> {
    if (!/^\d{1,10}$/.test(id)) return null;
    return this.em.getRepository(Project).findOne({ id: Number(id), team: principal.teamId });
  }

  /**
   * The decision, weighing every active project with coordinates within the search distance (the largest radius plus
   * the fix's accuracy, capped at the threshold). Its candidates are the nearest NEARBY_CANDIDATES_MAX of those, nearest
   * first; only they and the matched project become entities.
   */
  private async decide(team: Team, fix: CaptureFix | null | undefined): Promise<MatchDecision<Project>> {
    const usable = usableFix(fix);
    if (!usable) return decideProjectMatch(fix, [], team.accuracyThresholdM);
    const repository = this.em.getRepository(Project);
    const searchM = searchDistanceM(usable, team.accuracyThresholdM);
    const rows = await repository.activeWithCoordinatesIn(team.id, boundingBox(usable, searchM));
    const decision = decideProjectMatch(usable, rows.map(matchable), team.accuracyThresholdM);
    const candidates = decision.candidates
      .filter((candidate) => candidate.distanceM <= searchM)
      .slice(0, NEARBY_CANDIDATES_MAX)
      .map((candidate) => ({ ...candidate, project: repository.entityOf(candidate.project) }));
    return decision.decision === 'matched'
      ? { ...decision, project: repository.entityOf(decision.project), candidates }
      : { ...decision, candidates };
  }

  /**
   * The project an earlier create with this Idempotency-Key made, when the body is the same; a different body is a 422.
   * Holds a transaction-scoped lock on (team, key), so a concurrent retry waits for the first attempt.
   */
  private async earlierCreate(tx: EntityManager, teamId: number, { key, fingerprint }: Idempotency): Promise<Project | null> {
    if (key === null) return null;
    await lockIdempotencyKey(tx, teamId, key);
    const earlier = await tx.getRepository(Project).findByIdempotencyKey(teamId, key);
    if (earlier && earlier.idempotencyFingerprint !== fingerprint) throw idempotencyKeyReused();
    return earlier;
  }

  private async insert(tx: EntityManager, teamId: number, draft: NewProject, idempotency: Idempotency): Promise<Project> {
    const team = await tx.findOneOrFail(Team, teamId);
    const customer = draft.customerId === null ? null : await tx.findOne(Customer, { id: draft.customerId, team: teamId });
    if (draft.customerId !== null && !customer) throw new ValidationError({ customer_id: [NO_SUCH_CUSTOMER] });
    const project = tx.create(Project, {
      team,
      name: draft.name,
      status: 'active',
      address: draft.address,
      latitude: draft.coordinates?.lat ?? null,
      longitude: draft.coordinates?.lng ?? null,
      radiusM: draft.radiusM ?? team.defaultMatchRadiusM,
      customer,
      idempotencyKey: idempotency.key,
      idempotencyFingerprint: idempotency.fingerprint,
    });
    await tx.flush();
    return project;
  }
}

function matchable(row: MatchableProjectRow): MatchableProject<MatchableProjectRow> {
  return { project: row, lat: row.latitude, lng: row.longitude, radiusM: row.radius_m };
}
