// Idempotent demo data for local development (`cli seed`). The demo API key is a fixed, documented dev-only value,
// so `npm start` can print it on every start; it exists only in databases that were seeded.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from './modules/accounts/account.entity.js';
import { ApiKey } from './modules/accounts/api-key.entity.js';
import { KEY_ID_PREFIX, hashSecret } from './modules/accounts/api-key-credentials.js';

export const DEMO_ACCOUNT_NAME = 'Demo Merchant';
export const DEMO_KEY_ID = `${KEY_ID_PREFIX}${'DemoKey'.padEnd(24, '0')}`;
export const DEMO_KEY_SECRET = 'DemoSecretForLocalDevelopmentOnly'.padEnd(48, '0');
export const DEMO_API_KEY = `${DEMO_KEY_ID}.${DEMO_KEY_SECRET}`;

export interface CryptoDemoCredentials {
  /** `Authorization: Bearer <api_key>` on the merchant API; `X-Crypto-Authorization: Bearer <api_key>` at the gateway. */
  api_key: string;
  account_id: number;
}

export async function seedDemoData(em: EntityManager): Promise<CryptoDemoCredentials> {
  return em.transactional(async (tx) => {
    let key = await tx.findOne(ApiKey, { keyId: DEMO_KEY_ID }, { populate: ['account'] });
    if (!key) {
      const account = tx.create(Account, { name: DEMO_ACCOUNT_NAME, status: 'active' });
      key = tx.create(ApiKey, { account, keyId: DEMO_KEY_ID, secretHash: hashSecret(DEMO_KEY_SECRET), name: 'Demo key' });
    }
    // Re-running the seed restores the demo key if it was revoked or its account suspended locally.
    key.secretHash = hashSecret(DEMO_KEY_SECRET);
    key.revokedAt = null;
    key.account.status = 'active';
    await tx.flush();
    return { api_key: DEMO_API_KEY, account_id: key.account.id };
  });
}
