// Sign-in and tokens (spec "Authentication"): bearer tokens scoped to one team, their abilities, the REST guards
// (requireToken, requireScope) and GET /api/v1/auth/me.
import { AccessTokenSchema } from './access-token.entity.js';

export { ABILITIES, CAPTURE_ABILITY, assertAbility, holdsAbility, type Ability, type ScopeOptions } from './abilities.js';
export { AccessToken, AccessTokenSchema } from './access-token.entity.js';
export { ACCESS_TOKEN_PATTERN, ACCESS_TOKEN_PREFIX, generateAccessToken, hashAccessToken } from './access-token-credentials.js';
export { AuthService, type PhotosPrincipal, type SignedInUser } from './auth.service.js';
export { principalOf, requireScope, requireToken, signedInOf } from './auth.guard.js';
export { authRoutes } from './auth.routes.js';
export { authApi } from './auth.openapi.js';

export const authEntities = [AccessTokenSchema];
