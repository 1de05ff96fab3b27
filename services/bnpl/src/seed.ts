// Idempotent demo data for local development (`cli seed`). The demo credentials are fixed, documented dev-only values,
// so `npm start` can print them on every start; they exist only in databases that were seeded.
import { SERVICE_NAME } from './service-name.js';
import { hashPassword, passwordMatches } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, hashSecretKey, secretKeyMatches } from './modules/api-keys/index.js';
import { DASHBOARD_TOKEN_PREFIX, DashboardToken, hashDashboardToken } from './modules/merchant-auth/index.js';
import { Merchant, MerchantUser } from './modules/merchants/index.js';

export const DEMO_MERCHANT_NAME = 'Demo Shop';
export const DEMO_USER_EMAIL = 'demo@bnpl.tributary.test';
/** The demo user's dashboard password (login → code in the MailDev inbox → dashboard token). */
export const DEMO_USER_PASSWORD = 'demo-password-local-only';
export const DEMO_DASHBOARD_TOKEN = `${DASHBOARD_TOKEN_PREFIX}${'DemoDashboardTokenLocalDevOnly'.padEnd(48, '0')}`;
export const DEMO_PUBLIC_KEY = `pk_test_${'DemoPublicKey'.padEnd(32, '0')}`;
export const DEMO_SECRET_KEY = `sk_test_${'DemoSecretKeyLocalDevOnly'.padEnd(48, '0')}`;

export interface BnplDemoCredentials {
  merchant_id: string;
  /** The dashboard login: POST /api/v1/merchant/auth/login {email, password}, then the e-mailed code. */
  dashboard_email: string;
  dashboard_password: string;
  /** DT: `Authorization: Bearer <dashboard_token>`; `X-Bnpl-Authorization: Bearer <dashboard_token>` at the gateway. */
  dashboard_token: string;
  /** KEYS: `Authorization: Bearer <secret_key>` + `X-Merchant-Public-Key: <public_key>`. */
  public_key: string;
  secret_key: string;
}

export async function seedDemoData(em: EntityManager): Promise<BnplDemoCredentials> {
  return em.transactional(async (tx) => {
    let user = await tx.findOne(MerchantUser, { email: DEMO_USER_EMAIL }, { populate: ['merchant'] });
    if (!user) {
      const merchant = tx.create(Merchant, { name: DEMO_MERCHANT_NAME, settlementCadence: 'weekly' });
      user = tx.create(MerchantUser, { merchant, email: DEMO_USER_EMAIL, name: 'Demo Owner' });
    }
    const merchant = user.merchant;
    if (!(await passwordMatches(DEMO_USER_PASSWORD, user.passwordHash, SERVICE_NAME))) user.passwordHash = await hashPassword(DEMO_USER_PASSWORD);

    const tokenHash = hashDashboardToken(DEMO_DASHBOARD_TOKEN);
    const token = await tx.findOne(DashboardToken, { tokenHash });
    if (token) {
      token.revokedAt = null;
      token.expiresAt = null;
    } else {
      tx.create(DashboardToken, { user, tokenHash, expiresAt: null, revokedAt: null });
    }

    const key = await tx.findOne(ApiKey, { publicKey: DEMO_PUBLIC_KEY });
    if (key) {
      key.revokedAt = null;
      if (!(await secretKeyMatches(DEMO_SECRET_KEY, key.secretKeyHash))) key.secretKeyHash = await hashSecretKey(DEMO_SECRET_KEY);
    } else {
      tx.create(ApiKey, {
        merchant,
        name: 'Demo test key',
        environment: 'test',
        publicKey: DEMO_PUBLIC_KEY,
        secretKeyHash: await hashSecretKey(DEMO_SECRET_KEY),
        revokedAt: null,
      });
    }
    await tx.flush();
    return {
      merchant_id: merchant.id,
      dashboard_email: DEMO_USER_EMAIL,
      dashboard_password: DEMO_USER_PASSWORD,
      dashboard_token: DEMO_DASHBOARD_TOKEN,
      public_key: DEMO_PUBLIC_KEY,
      secret_key: DEMO_SECRET_KEY,
    };
  });
}
