// The token abilities (scopes) named by the spec's endpoint table, the device ability `capture`, and the one rule that
// checks them.
import { ForbiddenError } from '@tributary/kit';

export const ABILITIES = [
  'projects:read', 'projects:write', 'photos:read', 'photos:write', 'checklists:read', 'checklists:write',
  'tasks:read', 'tasks:write', 'pages:read', 'pages:write', 'customers:read', 'customers:write',
  'comments:read', 'comments:write', 'reports:read',
] as const;
export type Ability = (typeof ABILITIES)[number];

/**
 * The single ability of a device token (minted by a login that names a device). It covers exactly the endpoints the
 * capture app uses: each of those declares `{ capture: true }` beside its scope (see the README's Decisions table).
 */
export const CAPTURE_ABILITY = 'capture';

/** Whether an endpoint is one of the capture app's (so a device token's `capture` ability reaches it). */
export interface ScopeOptions {
  capture?: boolean;
}

/** What an ability check needs to know of the caller: null = a login session, else the token's explicit abilities. */
export interface AbilityHolder {
  abilities: readonly string[] | null;
}

export function holdsAbility(principal: AbilityHolder, ability: Ability, options: ScopeOptions = {}): boolean {
  if (principal.abilities === null) return true;
  return principal.abilities.includes(ability) || (options.capture === true && principal.abilities.includes(CAPTURE_ABILITY));
}

/**
 * 403 naming the missing scope when a token with explicit abilities lacks `ability` (and, on a capture endpoint, also
 * lacks `capture`). Login sessions carry no abilities; their permissions come from the role.
 */
export function assertAbility(principal: AbilityHolder, ability: Ability, options: ScopeOptions = {}): void {
  if (!holdsAbility(principal, ability, options)) {
    throw new ForbiddenError(`This token lacks the ${ability} ability.`, { missing_scope: ability });
  }
}

/**
 * What `capture` covers (decided here, README "Decisions"): the capture app's endpoints, `METHOD path` as documented.
 * Each route marks itself with `requireScope(<scope>, { capture: true })` (heartbeat needs a device token instead);
 * test/devices.test.ts checks that a device token reaches exactly these, plus the endpoints every token may use
 * (GET /auth/me, POST /auth/logout, POST /auth/switch-team).
 */
export const CAPTURE_ENDPOINTS = [
  'GET /api/v1/bootstrap',
  'POST /api/v1/devices/heartbeat',
  'GET /api/v1/projects',
  'GET /api/v1/projects/nearby',
  'GET /api/v1/projects/{project}',
  'POST /api/v1/photos',
  'GET /api/v1/photos',
  'GET /api/v1/photos/{photo}',
  'GET /api/v1/photo-groups',
  'POST /api/v1/photo-groups',
  'GET /api/v1/checklists',
  'GET /api/v1/checklists/{checklist}',
  'PATCH /api/v1/checklist-items/{item}',
] as const;
