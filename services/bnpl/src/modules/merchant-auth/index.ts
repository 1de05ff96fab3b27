// How merchants authenticate (spec "Authentication"): dashboard tokens (DT) for the dashboard's /api/v1/merchant/*
// routes, and the API key pair (KEYS) checked here against the api-keys module's keys; the DT guard.
import { DashboardTokenSchema } from './dashboard-token.entity.js';

export { DashboardToken, DashboardTokenSchema } from './dashboard-token.entity.js';
export { DASHBOARD_TOKEN_PATTERN, DASHBOARD_TOKEN_PREFIX, generateDashboardToken, hashDashboardToken } from './dashboard-token-credentials.js';
export { MerchantAuthService, type BnplPrincipal } from './merchant-auth.service.js';
export { dashboardPrincipalOf, requireDashboardToken } from './merchant-auth.guard.js';

export const merchantAuthEntities = [DashboardTokenSchema];
export { PUBLIC_KEY_HEADER, apiKeyPrincipalOf, publicKeyCallerOf, requireApiKeyPair, requirePublicKey, type PublicKeyCaller } from './api-key.guard.js';
