// Role rules of office sessions (spec: "permissions come from the user's role"; role names and rules not shown, decided
// here). A member may use every scoped endpoint; team administration (integration tokens, and later webhook endpoints
// and team settings) needs an owner or admin. Tokens with explicit abilities (integration, device) never administer:
// they are limited by their abilities, and no ability reaches a role-guarded endpoint.
import { ForbiddenError } from '@tributary/kit';
import type { TeamRole } from '../teams/index.js';

/** The roles that administer a team: integration tokens, webhook endpoints, team settings. */
export const TEAM_ADMIN_ROLES: readonly TeamRole[] = ['owner', 'admin'];

/** What a role check needs to know of the caller. */
export interface RoleHolder {
  role: TeamRole;
  abilities: readonly string[] | null;
}

/** 403 unless the caller is an office session (no explicit abilities) whose role is one of `roles`. */
export function assertRole(principal: RoleHolder, roles: readonly TeamRole[]): void {
  if (principal.abilities !== null) {
    throw new ForbiddenError('This needs an office session (sign in without a device_id); tokens with abilities cannot do it.', { required_roles: [...roles] });
  }
  if (!roles.includes(principal.role)) {
    throw new ForbiddenError(`This needs the role ${roles.join(' or ')}; your role in this team is ${principal.role}.`, { required_roles: [...roles] });
  }
}
