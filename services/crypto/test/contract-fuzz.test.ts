// Schemathesis against crypto's checked-in OpenAPI document (the kit's contract-fuzz suite): every answer documented.
import { describeContractFuzz } from '@tributary/kit/testing/contract-fuzz';
import { openApiDocumentPath } from '@tributary/schema';
import { DEMO_API_KEY } from '../src/seed.js';
import { cryptoService } from '../src/service.js';
import { SERVICE_NAME } from '../src/service-name.js';

describeContractFuzz({
  definition: cryptoService,
  documentPath: openApiDocumentPath(SERVICE_NAME),
  // Far above what the run sends, so answers are the routes' own (a throttled run fails on Schemathesis's rate_limited warning).
  env: { CRYPTO_MERCHANT_RATE_LIMIT: '1000000', CRYPTO_PUBLIC_RATE_LIMIT: '1000000' },
  credentials: async (h) => {
    await cryptoService.seed(h.orm.em.fork());
    return { apiKey: { bearer: DEMO_API_KEY } };
  },
});
