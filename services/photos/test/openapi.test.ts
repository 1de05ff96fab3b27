import { describeOpenApiDocument } from '@tributary/kit/testing/openapi';
import { readOpenApiDocument } from '@tributary/schema';
import { DOCS_PATH, REST_BASE } from '../src/api-paths.js';
import { photosApiDocument } from '../src/api-document.js';
import { projectListResponse } from '../src/modules/projects/project.openapi.js';
import { DEMO_ACCESS_TOKEN } from '../src/seed.js';
import { photosService } from '../src/service.js';

describeOpenApiDocument({
  definition: photosService,
  document: photosApiDocument,
  checkedIn: () => readOpenApiDocument('photos'),
  restBase: REST_BASE,
  docsPath: DOCS_PATH,
  sample: { path: '/api/v1/projects', headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` }, schema: projectListResponse },
});
