// Schemathesis against bnpl's checked-in OpenAPI document (the kit's contract-fuzz suite): every answer documented.
import { describeContractFuzz } from '@tributary/kit/testing/contract-fuzz';
import { openApiDocumentPath } from '@tributary/schema';
import { DEMO_DASHBOARD_TOKEN, DEMO_PUBLIC_KEY, DEMO_SECRET_KEY } from '../src/seed.js';
import { bnplService } from '../src/service.js';
import { SERVICE_NAME } from '../src/service-name.js';

describeContractFuzz({
  definition: bnplService,
  documentPath: openApiDocumentPath(SERVICE_NAME),
  // Far above what the run sends, so answers are the routes' own (a throttled run fails on Schemathesis's rate_limited warning).
  env: {
    BNPL_LOGIN_RATE_LIMIT_PER_IP: '1000000',
    BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: '1000000',
    BNPL_VERIFY_RATE_LIMIT_PER_IP: '1000000',
    BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: '1000000',
    BNPL_SESSION_READ_RATE_LIMIT: '1000000',
  },
  credentials: async (h) => {
    await bnplService.seed(h.orm.em.fork());
    return {
      dashboardToken: { bearer: DEMO_DASHBOARD_TOKEN },
      secretKey: { bearer: DEMO_SECRET_KEY },
      merchantPublicKey: { apiKey: DEMO_PUBLIC_KEY },
    };
  },
  // Logout revokes the dashboard token every other dashboard operation runs with.
  excludePaths: ['^/api/v1/merchant/auth/logout$'],
  // The login steps take no credential: generated emails, passwords and codes never match the seed's, 401 by design.
  authNotSupplied: ['/api/v1/merchant/auth/login', '/api/v1/merchant/auth/otp/verify'],
});
