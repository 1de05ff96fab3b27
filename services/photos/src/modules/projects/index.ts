// Projects (job sites) of a team: optional coordinates, the paginated list, the GraphQL type.
import { ProjectSchema } from './project.entity.js';

export { PROJECT_STATUSES, Project, ProjectSchema, type ProjectStatus } from './project.entity.js';
export { ProjectService, type ProjectPage } from './project.service.js';
export {
  MAX_PROJECT_RADIUS_M, UNASSIGNED_REASONS, greatCircleDistanceM, usableFix,
  type CaptureFix, type MatchCandidate, type MatchDecision, type UnassignedReason,
} from './project-matching.js';
export { PROJECTS_PER_PAGE } from './project.validation.js';
export { projectRoutes } from './project.routes.js';
export { projectResolvers } from './project.resolvers.js';
export { projectApi } from './project.openapi.js';

export const projectEntities = [ProjectSchema];
