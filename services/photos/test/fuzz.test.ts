// The kit's property-based fuzz suite against photos: every documented operation, hostile and schema-valid input.
import { describeFuzz } from '@tributary/kit/testing/fuzz';
import { photosApiDocument } from '../src/api-document.js';
import { DEMO_ACCESS_TOKEN } from '../src/seed.js';
import { photosService } from '../src/service.js';

describeFuzz({
  definition: photosService,
  document: photosApiDocument,
  credentials: async (h) => {
    await photosService.seed(h.orm.em.fork());
    return { accessToken: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` } };
  },
});
