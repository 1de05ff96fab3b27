// bnpl's OpenAPI document: every module's route definitions plus the kit's standard routes. Served at
// /api/v1/openapi.json and /docs, checked in as schema/openapi/bnpl.json (`npm run openapi`).
import { createServiceApiDocument, envelopeErrorBody, type OpenApiDocument } from '@tributary/kit';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { API_KEY_PAIR_SECURITY, DASHBOARD_TOKEN_SECURITY, bnplSecuritySchemes } from './api-security.js';
import { apiKeyApi } from './modules/api-keys/index.js';
import { dashboardLoginApi } from './modules/merchant-auth/index.js';
import { paymentLinkApi } from './modules/payment-links/index.js';
import { planApi } from './modules/plans/index.js';
import { refundApi } from './modules/refunds/index.js';
import { settlementApi } from './modules/settlements/index.js';
import { salesApi } from './modules/sales/index.js';
import { WEBHOOKS_TAG, webhookEndpointApi } from './modules/webhook-endpoints/index.js';
import { widgetSessionApi } from './modules/widget-sessions/index.js';

export function bnplApiDocument(): OpenApiDocument {
  return createServiceApiDocument({
    title: 'Tributary BNPL merchant API',
    version: '0.1.0',
    description:
      'Buy-now-pay-later merchant interface. Errors use the envelope `{"error":{"code","message","fields"?}}`. Authentication: dashboard token (DT) for /api/v1/merchant/*, API key pair (KEYS) for server-to-server calls.',
    restBase: REST_BASE,
    docsPath: DOCS_PATH,
    errorBody: envelopeErrorBody,
    securitySchemes: bnplSecuritySchemes,
    graphqlSecurity: [...DASHBOARD_TOKEN_SECURITY, ...API_KEY_PAIR_SECURITY],
    // Refused credentials spend the client's budget (rate-limits.ts): every route that answers 401 may answer 429.
    authenticationFailureLimited: true,
    tags: [
      { name: 'Dashboard login' },
      { name: 'API keys' },
      { name: 'Widget sessions' },
      { name: 'Installment plans' },
      { name: 'Payment links' },
      { name: 'Refunds' },
      { name: 'Settlements' },
      { name: 'Sales' },
      WEBHOOKS_TAG,
      { name: 'GraphQL' },
      { name: 'Operations' },
      { name: 'Documentation' },
    ],
    routes: [
      ...Object.values(dashboardLoginApi),
      ...Object.values(apiKeyApi),
      ...Object.values(widgetSessionApi),
      ...Object.values(planApi),
      ...Object.values(paymentLinkApi),
      ...Object.values(refundApi),
      ...Object.values(settlementApi),
      ...Object.values(salesApi),
      ...Object.values(webhookEndpointApi),
    ],
  });
}
