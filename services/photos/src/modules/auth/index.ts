// Sign-in and tokens (spec "Authentication"): login (office sessions and device tokens), logout, switch-team, integration
// tokens, bearer tokens scoped to one team with their abilities, role rules, and the REST guards (requireToken,
// requireScope, requireRole, requireDeviceToken) other modules mount.
import { AccessTokenSchema } from './access-token.entity.js';

export { ABILITIES, CAPTURE_ABILITY, CAPTURE_ENDPOINTS, assertAbility, holdsAbility, type Ability, type ScopeOptions } from './abilities.js';
export { AccessToken, AccessTokenSchema, type AccessTokenKind } from './access-token.entity.js';
export {
  ACCESS_TOKEN_PATTERN, ACCESS_TOKEN_PREFIX, DEVICE_TOKEN_TTL_DAYS, INTEGRATION_TOKEN_MAX_DAYS, SESSION_TOKEN_TTL_DAYS,
  generateAccessToken, hashAccessToken,
} from './access-token-credentials.js';
export { AuthService, type PhotosPrincipal, type SignedInUser } from './auth.service.js';
export { principalOf, requireDeviceToken, requireRole, requireScope, requireToken, signedInOf, signedInOrUndefined } from './auth.guard.js';
export { TEAM_ADMIN_ROLES, assertRole } from './roles.js';
export { normalizeEmail } from './email-address.js';
export { SignInService, type IssuedToken } from './sign-in.service.js';
export { IntegrationTokenService, type CreatedIntegrationToken, type IntegrationTokenGrant } from './integration-token.service.js';
export { authRoutes } from './auth.routes.js';
export { authResolvers } from './auth.resolvers.js';
export { LOGIN_PATH, authApi } from './auth.openapi.js';

export const authEntities = [AccessTokenSchema];
