// The kit's property-based fuzz suite against crypto: every documented operation, hostile and schema-valid input.
import { describeFuzz } from '@tributary/kit/testing/fuzz';
import { cryptoApiDocument } from '../src/api-document.js';
import { DEMO_API_KEY } from '../src/seed.js';
import { cryptoService } from '../src/service.js';

describeFuzz({
  definition: cryptoService,
  document: cryptoApiDocument,
  // Far above what the run sends, so answers are the routes' own; 429 stays documented and allowed.
  env: { CRYPTO_MERCHANT_RATE_LIMIT: '1000000', CRYPTO_PUBLIC_RATE_LIMIT: '1000000' },
  credentials: async (h) => {
    await cryptoService.seed(h.orm.em.fork());
    return { apiKey: { authorization: `Bearer ${DEMO_API_KEY}` } };
  },
});
