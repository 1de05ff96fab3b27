import { describeOpenApiDocument } from '@tributary/kit/testing/openapi';
import { readOpenApiDocument } from '@tributary/schema';
import { DOCS_PATH, REST_BASE } from '../src/api-paths.js';
import { bnplApiDocument } from '../src/api-document.js';
import { apiKeyListResponse } from '../src/modules/api-keys/api-key.openapi.js';
import { DEMO_DASHBOARD_TOKEN } from '../src/seed.js';
import { bnplService } from '../src/service.js';

describeOpenApiDocument({
  definition: bnplService,
  document: bnplApiDocument,
  checkedIn: () => readOpenApiDocument('bnpl'),
  restBase: REST_BASE,
  docsPath: DOCS_PATH,
  sample: { path: '/api/v1/merchant/api-keys', headers: { authorization: `Bearer ${DEMO_DASHBOARD_TOKEN}` }, schema: apiKeyListResponse },
});
