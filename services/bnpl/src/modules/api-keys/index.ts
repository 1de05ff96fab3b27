// Merchant API key pairs (spec "API keys"): the public key stored as is, the secret key only as a bcrypt hash; their
// dashboard routes (DT).
import { ApiKeySchema } from './api-key.entity.js';

export { API_KEY_ENVIRONMENTS, ApiKey, ApiKeySchema, type ApiKeyEnvironment } from './api-key.entity.js';
export { PUBLIC_KEY_PATTERN, PUBLIC_KEY_SUFFIX_LENGTH, SECRET_KEY_PATTERN, SECRET_KEY_SUFFIX_LENGTH, generateKeyPair, hashSecretKey, secretKeyMatches } from './api-key-credentials.js';
export { ApiKeyService, type CreatedApiKey } from './api-key.service.js';
export { API_KEY_PROOF_TTL_MS, VERIFIED_API_KEY_CACHE_SIZE, VERIFIED_API_KEY_TTL_MS, VerifiedApiKeyCache, type VerifiedApiKey, type VerifiedApiKeyCacheOptions } from './verified-api-key-cache.js';
export { apiKeyRoutes } from './api-key.routes.js';
export { apiKeyResolvers } from './api-key.resolvers.js';
export { apiKeyApi } from './api-key.openapi.js';

export const apiKeyEntities = [ApiKeySchema];
