// Idempotent demo data for local development (`cli seed`). The demo API key and the demo webhook signing secret are
// fixed, documented dev-only values, so `npm start` can print them on every start; they exist only in databases
// that were seeded. The signing secret is stored sealed like every other (SECRETS_ENCRYPTION_KEY).
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig, secretBoxFor, secretsEnv } from '@tributary/kit';
import { Account, ApiKey, KEY_ID_PREFIX, SIGNING_SECRET_PREFIX, SigningSecretService, hashSecret } from './modules/accounts/index.js';
import { chainNetworkOf } from './chain-network.js';
import { TEST_KEYS_ON_MAINNET_MESSAGE, saveAccountXpubs, testMnemonicAccountKeys } from './modules/receive-addresses/index.js';

export const DEMO_ACCOUNT_NAME = 'Demo Merchant';
export const DEMO_KEY_ID = `${KEY_ID_PREFIX}${'DemoKey'.padEnd(24, '0')}`;
export const DEMO_KEY_SECRET = 'DemoSecretForLocalDevelopmentOnly'.padEnd(48, '0');
export const DEMO_API_KEY = `${DEMO_KEY_ID}.${DEMO_KEY_SECRET}`;
export const DEMO_SIGNING_SECRET = `${SIGNING_SECRET_PREFIX}${'DemoSigningSecretForLocalDevelopmentOnly'.padEnd(48, '0')}`;

export interface CryptoDemoCredentials {
  /** `Authorization: Bearer <api_key>` on the merchant API; `X-Crypto-Authorization: Bearer <api_key>` at the gateway. */
  api_key: string;
  /** Key of the HMAC in `X-Gateway-Signature` on the demo account's webhooks. */
  signing_secret: string;
  account_id: number;
}

export async function seedDemoData(em: EntityManager, env: NodeJS.ProcessEnv = process.env): Promise<CryptoDemoCredentials> {
  const box = secretBoxFor(loadConfig(secretsEnv, env));
  const network = chainNetworkOf(env);
  // The demo account is paid to a published test mnemonic's addresses: never on mainnet.
  if (network === 'mainnet') throw new Error(`The demo data is for test networks only (CRYPTO_NETWORK=${network}). ${TEST_KEYS_ON_MAINNET_MESSAGE}`);
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
    const accountId = key.account.id;
    // The demo account is paid to the public test mnemonic's addresses of its own BIP32 account (n' = its id; only
    // missing keys are added: a key set by an operator is kept), and signs with the fixed demo secret (restored if
    // rotated, re-sealed under the current key).
    const configured = new Set((await tx.getConnection().execute<Array<{ asset: string }>>(
      'select "asset" from "account_xpubs" where "account_id" = ?', [accountId], 'all', tx.getTransactionContext(),
    )).map((row) => row.asset));
    const missing = Object.fromEntries(Object.entries(testMnemonicAccountKeys(accountId)).filter(([asset]) => !configured.has(asset)));
    if (Object.keys(missing).length > 0) await saveAccountXpubs(tx, network, accountId, missing);
    const signing = new SigningSecretService(tx, box);
    let current: string | null = null;
    try {
      current = await signing.current(accountId);
    } catch {
      // Sealed under another key (SECRETS_ENCRYPTION_KEY changed): replaced below.
    }
    if (current !== DEMO_SIGNING_SECRET) await signing.rotate(accountId, DEMO_SIGNING_SECRET);
    return { api_key: DEMO_API_KEY, signing_secret: DEMO_SIGNING_SECRET, account_id: accountId };
  });
}
