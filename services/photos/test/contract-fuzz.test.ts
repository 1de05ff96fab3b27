// Schemathesis against photos' checked-in OpenAPI document (the kit's contract-fuzz suite): every answer documented.
import { describeContractFuzz } from '@tributary/kit/testing/contract-fuzz';
import { openApiDocumentPath } from '@tributary/schema';
import { AuthService, IntegrationTokenService } from '../src/modules/auth/index.js';
import { DEMO_ACCESS_TOKEN } from '../src/seed.js';
import { photosService } from '../src/service.js';
import { SERVICE_NAME } from '../src/service-name.js';

describeContractFuzz({
  definition: photosService,
  documentPath: openApiDocumentPath(SERVICE_NAME),
  // Far above what the run sends, so answers are the routes' own (a throttled run fails on Schemathesis's rate_limited warning).
  env: {
    PHOTOS_RATE_LIMIT_PER_MINUTE: '1000000',
    PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: '1000000',
    PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: '1000000',
    PHOTOS_LOGIN_RATE_LIMIT_PER_IP: '1000000',
  },
  credentials: async (h) => {
    await photosService.seed(h.orm.em.fork());
    return { accessToken: { bearer: DEMO_ACCESS_TOKEN } };
  },
  // An integration token to revoke: with only unknown ids, DELETE answers 404 to every well-authenticated case and the
  // deep run read the generated bad Authorization headers' 401s as missing credentials (missing_auth).
  existingResources: async (h) => {
    const em = h.orm.em.fork();
    const owner = await new AuthService(em).authenticate(`Bearer ${DEMO_ACCESS_TOKEN}`);
    const { record } = await new IntegrationTokenService(em).create(owner, { name: 'Contract fuzz', abilities: ['projects:read'], expires_in_days: 1 });
    return [{ method: 'delete', path: '/api/v1/auth/tokens/{token}', parameters: { token: String(record.id) } }];
  },
  // Logout ends the seeded token; switch-team moves it to the demo user's second team, away from the seeded data.
  excludePaths: ['^/api/v1/auth/(logout|switch-team)$'],
  // The heartbeat needs a device token (a login with a device_id), which the seed does not issue: 403 by design.
  authNotSupplied: ['/api/v1/devices/heartbeat'],
});
