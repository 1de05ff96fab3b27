// Merchant accounts: the account and its API keys (spec "Credentials", "Authentication"), the webhook signing secret,
// the operator's account management, the merchant API's guard, REST routes and GraphQL resolvers.
import { AccountSchema } from './account.entity.js';
import { ApiKeySchema } from './api-key.entity.js';

export { ACCOUNT_STATUSES, Account, AccountSchema, type AccountStatus } from './account.entity.js';
export { ApiKey, ApiKeySchema } from './api-key.entity.js';
export { AccountService, type CryptoPrincipal } from './account.service.js';
export { AccountAdminService, type CreatedAccount } from './account-admin.service.js';
export { KEY_ID_PREFIX, generateApiKey, hashSecret, parseBearerApiKey } from './api-key-credentials.js';
export { SIGNING_SECRET_PREFIX, SigningSecretService, generateSigningSecret, signingSecretRef } from './signing-secret.service.js';
export { principalOf, requireApiKey } from './api-key.guard.js';
export { accountRoutes } from './account.routes.js';
export { accountResolvers } from './account.resolvers.js';
export { accountApi } from './account.openapi.js';

export const accountEntities = [AccountSchema, ApiKeySchema];
