// Teams (the company accounts), their users and memberships with roles.
import { TeamMembershipSchema } from './team-membership.entity.js';
import { TeamSchema } from './team.entity.js';
import { UserSchema } from './user.entity.js';

export { DEFAULT_ACCURACY_THRESHOLD_M, DEFAULT_MATCH_RADIUS_M, Team, TeamSchema } from './team.entity.js';
export { User, UserSchema } from './user.entity.js';
export { TEAM_ROLES, TeamMembership, TeamMembershipSchema, type TeamRole } from './team-membership.entity.js';
export { TeamService } from './team.service.js';
export { NOT_A_MEMBER, teamMembersByIds } from './team-members.js';
export { presentUser, userRef } from './user-ref.js';
export { teamResolvers } from './team.resolvers.js';

export const teamEntities = [TeamSchema, UserSchema, TeamMembershipSchema];
