// The kit's property-based fuzz suite against bnpl: every documented operation, hostile and schema-valid input.
import { describeFuzz } from '@tributary/kit/testing/fuzz';
import { bnplApiDocument } from '../src/api-document.js';
import { DEMO_DASHBOARD_TOKEN, DEMO_PUBLIC_KEY, DEMO_SECRET_KEY } from '../src/seed.js';
import { bnplService } from '../src/service.js';

describeFuzz({
  definition: bnplService,
  document: bnplApiDocument,
  // The login limits are raised so the run reaches the handlers instead of being answered 429.
  env: { BNPL_LOGIN_RATE_LIMIT_PER_IP: '1000000', BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: '1000000', BNPL_VERIFY_RATE_LIMIT_PER_IP: '1000000', BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: '1000000' },
  credentials: async (h) => {
    await bnplService.seed(h.orm.em.fork());
    return {
      dashboardToken: { authorization: `Bearer ${DEMO_DASHBOARD_TOKEN}` },
      secretKey: { authorization: `Bearer ${DEMO_SECRET_KEY}` },
      merchantPublicKey: { 'x-merchant-public-key': DEMO_PUBLIC_KEY },
    };
  },
});
