// The kit's property-based fuzz suite against photos: every documented operation, hostile and schema-valid input.
import { describeFuzz } from '@tributary/kit/testing/fuzz';
import { photosApiDocument } from '../src/api-document.js';
import { DEMO_ACCESS_TOKEN } from '../src/seed.js';
import { photosService } from '../src/service.js';

/** Operations that take the seeded token from the seeded data (logout; switch-team to the second team): fuzzed last. */
const ENDS_THE_TOKEN = ['/api/v1/auth/logout', '/api/v1/auth/switch-team'];

/** The document with those paths moved to the end, so every other operation runs with the seeded token in its team. */
function tokenEndingPathsLast(): ReturnType<typeof photosApiDocument> {
  const document = photosApiDocument();
  const entries = Object.entries(document.paths ?? {});
  const ends = (path: string) => ENDS_THE_TOKEN.includes(path);
  return { ...document, paths: Object.fromEntries([...entries.filter(([path]) => !ends(path)), ...entries.filter(([path]) => ends(path))]) };
}

describeFuzz({
  definition: photosService,
  document: tokenEndingPathsLast,
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
