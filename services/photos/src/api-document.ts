// photos' OpenAPI document: every module's route definitions plus the kit's standard routes. Served at
// /api/v1/openapi.json and /docs, checked in as schema/openapi/photos.json (`npm run openapi`).
import { createServiceApiDocument, envelopeErrorBody, type OpenApiDocument } from '@tributary/kit';
import { DOCS_PATH, REST_BASE } from './api-paths.js';
import { ACCESS_TOKEN_SECURITY, photosSecuritySchemes } from './api-security.js';
import { authApi } from './modules/auth/index.js';
import { bootstrapApi } from './modules/bootstrap/index.js';
import { projectApi } from './modules/projects/index.js';
import { WEBHOOKS_TAG, webhookEndpointApi } from './modules/webhook-endpoints/index.js';
import { deviceApi } from './modules/devices/index.js';
import { photoApi } from './modules/photos/index.js';
import { photoGroupApi } from './modules/photo-groups/index.js';
import { checklistApi } from './modules/checklists/index.js';
import { taskApi } from './modules/tasks/index.js';
import { reportApi } from './modules/reports/index.js';
import { commentApi, notificationApi } from './modules/comments/index.js';
import { pageApi } from './modules/pages/index.js';
import { customerApi } from './modules/customers/index.js';

export function photosApiDocument(): OpenApiDocument {
  return createServiceApiDocument({
    title: 'Tributary site photos API',
    version: '0.1.0',
    description: 'Site photo documentation. Errors use the envelope `{"error":{"code","message","fields"?}}`; success bodies are `{"data": …}` (lists add `meta`).',
    restBase: REST_BASE,
    docsPath: DOCS_PATH,
    errorBody: envelopeErrorBody,
    securitySchemes: photosSecuritySchemes,
    graphqlSecurity: ACCESS_TOKEN_SECURITY,
    tags: [{ name: 'Auth' }, { name: 'Bootstrap' }, { name: 'Projects' }, { name: 'Photos' }, { name: 'Reports' }, { name: 'Devices' }, { name: 'Checklists' }, { name: 'Tasks' }, { name: 'Comments' }, { name: 'Pages' }, { name: 'Customers' }, WEBHOOKS_TAG, { name: 'GraphQL' }, { name: 'Operations' }, { name: 'Documentation' }],
    routes: [
      ...Object.values(authApi),
      ...Object.values(bootstrapApi),
      ...Object.values(projectApi),
      ...Object.values(photoApi),
      ...Object.values(photoGroupApi),
      ...Object.values(checklistApi),
      ...Object.values(taskApi),
      ...Object.values(reportApi),
      ...Object.values(commentApi),
      ...Object.values(notificationApi),
      ...Object.values(deviceApi),
      ...Object.values(webhookEndpointApi),
      ...Object.values(pageApi),
      ...Object.values(customerApi),
    ],
  });
}
