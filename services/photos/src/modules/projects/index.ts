// Projects (job sites) of a team: optional coordinates, create (idempotent), the paginated list, one project with
// counts (ProjectCountSource), GPS matching and its nearby decision, the GraphQL type.
import { ProjectSchema } from './project.entity.js';

export { PROJECT_STATUSES, Project, ProjectSchema, type ProjectStatus } from './project.entity.js';
export {
  NEARBY_CANDIDATES_MAX, NO_SUCH_CUSTOMER, ProjectService,
  type NearbyProjects, type ProjectCreation, type ProjectMatchCandidate, type ProjectPage, type ProjectServiceOptions, type ProjectWithCounts,
} from './project.service.js';
export { PLANNED_PROJECT_COUNT_KEYS, type ProjectCountSource } from './project-counts.js';
export type { ProjectEvent, ProjectEventSink } from './project-events.js';
export { presentProject } from './project.presenter.js';
export {
  MAX_PROJECT_RADIUS_M, UNASSIGNED_REASONS, boundingBox, greatCircleDistanceM, usableFix,
  type CaptureFix, type MatchCandidate, type MatchDecision, type UnassignedReason,
} from './project-matching.js';
export { MIN_PROJECT_RADIUS_M, PROJECTS_PER_PAGE } from './project.validation.js';
export { projectRoutes } from './project.routes.js';
export { projectResolvers } from './project.resolvers.js';
export { projectApi, projectResource } from './project.openapi.js';

export const projectEntities = [ProjectSchema];
