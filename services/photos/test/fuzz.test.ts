// The kit's property-based fuzz suite against photos: every documented operation, hostile and schema-valid input.
import { describeFuzz } from '@tributary/kit/testing/fuzz';
import { photosApiDocument } from '../src/api-document.js';
import { DEMO_ACCESS_TOKEN } from '../src/seed.js';
import { photosService } from '../src/service.js';

describeFuzz({
  definition: photosService,
  document: photosApiDocument,
  // The limits are raised so the run reaches the handlers instead of being answered 429.
  env: {
    PHOTOS_RATE_LIMIT_PER_MINUTE: '1000000',
    PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: '1000000',
    PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: '1000000',
    PHOTOS_LOGIN_RATE_LIMIT_PER_IP: '1000000',
  },
  credentials: async (h) => {
    await photosService.seed(h.orm.em.fork());
    return { accessToken: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` } };
  },
});
