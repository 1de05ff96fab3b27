// The token abilities (scopes) named by the spec's endpoint table, and the one rule that checks them.
import { ForbiddenError } from '@tributary/kit';

export const ABILITIES = [
  'projects:read', 'projects:write', 'photos:read', 'photos:write', 'checklists:read', 'checklists:write',
  'tasks:read', 'tasks:write', 'pages:read', 'pages:write', 'customers:read', 'customers:write',
  'comments:read', 'comments:write', 'reports:read',
] as const;
export type Ability = (typeof ABILITIES)[number];

/** What an ability check needs to know of the caller: null = a login session, else the token's explicit abilities. */
export interface AbilityHolder {
  abilities: readonly string[] | null;
}

/**
 * 403 naming the missing scope when a token with explicit abilities lacks `ability`. Login sessions carry no
 * abilities; their permissions come from the role (every role may read; write rules arrive with their endpoints).
 */
export function assertAbility(principal: AbilityHolder, ability: Ability): void {
  if (principal.abilities !== null && !principal.abilities.includes(ability)) {
    throw new ForbiddenError(`This token lacks the ${ability} ability.`, { missing_scope: ability });
  }
}
