// How merchants authenticate (spec "Authentication"): the dashboard login (password, e-mailed code, dashboard token)
// and logout; dashboard tokens (DT) for the dashboard's /api/v1/merchant/* routes, and the API key pair (KEYS)
// checked here against the api-keys module's keys; the DT guard.
import { DashboardTokenSchema } from './dashboard-token.entity.js';
import { LoginCodeSchema } from './login-code.entity.js';

export { DashboardToken, DashboardTokenSchema } from './dashboard-token.entity.js';
export {
  DASHBOARD_TOKEN_PATTERN,
  DASHBOARD_TOKEN_PREFIX,
  DASHBOARD_TOKEN_TTL_HOURS,
  dashboardTokenExpiry,
  generateDashboardToken,
  hashDashboardToken,
} from './dashboard-token-credentials.js';
export { LoginCode, LoginCodeSchema } from './login-code.entity.js';
export { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_PATTERN, LOGIN_CODE_TTL_MINUTES } from './login-code-credentials.js';
export { LOGIN_CODE_MAIL_SUBJECT } from './login-code-mail.js';
export {
  VERIFIED_DASHBOARD_TOKEN_CACHE_SIZE,
  VERIFIED_DASHBOARD_TOKEN_TTL_MS,
  VerifiedDashboardTokenCache,
  type VerifiedDashboardTokenCacheOptions,
} from './verified-dashboard-token-cache.js';
export { MerchantAuthService, type BnplPrincipal, type CredentialClient, type MerchantAuthOptions, type PublicKeyCaller } from './merchant-auth.service.js';
export { dashboardPrincipalOf, requireDashboardToken } from './merchant-auth.guard.js';
export { dashboardMerchantId, readableLivemode } from './dashboard-only.js';
export { DashboardLoginService, type DashboardLoginOptions, type IssuedDashboardToken, type LoginStarted } from './dashboard-login.service.js';
export { LOGIN_PATH, LOGOUT_PATH, VERIFY_LOGIN_CODE_PATH, dashboardLoginApi } from './dashboard-login.openapi.js';
export { dashboardLoginRoutes } from './dashboard-login.routes.js';

export const merchantAuthEntities = [DashboardTokenSchema, LoginCodeSchema];
export { PUBLIC_KEY_HEADER, apiKeyPrincipalOf, publicKeyCallerOf, requireApiKeyPair, requirePublicKey } from './api-key.guard.js';
