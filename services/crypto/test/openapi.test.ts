import { describeOpenApiDocument } from '@tributary/kit/testing/openapi';
import { readOpenApiDocument } from '@tributary/schema';
import { DOCS_PATH, MERCHANT_API_PREFIX } from '../src/api-paths.js';
import { cryptoApiDocument } from '../src/api-document.js';
import { accountResponse } from '../src/modules/accounts/account.openapi.js';
import { DEMO_API_KEY } from '../src/seed.js';
import { cryptoService } from '../src/service.js';

describeOpenApiDocument({
  definition: cryptoService,
  document: cryptoApiDocument,
  checkedIn: () => readOpenApiDocument('crypto'),
  restBase: MERCHANT_API_PREFIX,
  docsPath: DOCS_PATH,
  sample: { path: '/api/merchant/v1/account', headers: { authorization: `Bearer ${DEMO_API_KEY}` }, schema: accountResponse },
});
