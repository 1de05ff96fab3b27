// crypto's OpenAPI document: every module's route definitions plus the kit's standard routes. Served at
// /api/merchant/v1/openapi.json and /docs, checked in as schema/openapi/crypto.json (`npm run openapi`).
import { createServiceApiDocument, messageErrorBody, type OpenApiDocument } from '@tributary/kit';
import { DOCS_PATH, MERCHANT_API_PREFIX, PUBLIC_API_PREFIX } from './api-paths.js';
import { API_KEY_SECURITY, cryptoSecuritySchemes } from './api-security.js';
import { accountApi } from './modules/accounts/index.js';
import { paymentRequestApi } from './modules/payment-requests/index.js';

export function cryptoApiDocument(): OpenApiDocument {
  return createServiceApiDocument({
    title: 'Tributary crypto payments merchant API',
    version: '0.1.0',
    description: 'Cryptocurrency payment gateway, merchant API. Errors are `{"message", "errors"?}`; 422 lists offending fields in `errors`.',
    restBase: MERCHANT_API_PREFIX,
    docsPath: DOCS_PATH,
    errorBody: messageErrorBody,
    securitySchemes: cryptoSecuritySchemes,
    graphqlSecurity: API_KEY_SECURITY,
    tags: [{ name: 'Payment requests' }, { name: 'Payer', description: 'Public payer view: no credentials; the random slug is the capability.' }, { name: 'Account' }, { name: 'GraphQL' }, { name: 'Operations' }, { name: 'Documentation' }],
    routes: [...Object.values(paymentRequestApi), ...Object.values(accountApi)],
    // The spec's limits (rate-limits.ts): every route under these prefixes may answer 429.
    rateLimitedPaths: [MERCHANT_API_PREFIX, PUBLIC_API_PREFIX],
  });
}
