// crypto's test harness: the kit's real-service harness (fresh migrated database, free port) with crypto's definition,
// and a merchant made the way the dashboard makes one.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { Account } from '../src/modules/accounts/account.entity.js';
import { ApiKey } from '../src/modules/accounts/api-key.entity.js';
import { generateApiKey, hashSecret } from '../src/modules/accounts/api-key-credentials.js';
import { saveAccountXpubs, testMnemonicAccountKeys } from '../src/modules/receive-addresses/index.js';
import type { CryptoPrincipal } from '../src/modules/accounts/index.js';
import { draftFromBody, type PaymentRequest, type PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { cryptoService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
export const startHarness = (options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServiceHarness> => startServiceHarness(cryptoService, options);

export interface TestMerchant {
  accountId: number;
  /** The API key `<KEY_ID>.<SECRET>`. */
  key: string;
  apiKeyId: number;
}

/** An account with one API key and the public test mnemonic's receive keys for every asset. */
export async function createMerchant(h: ServiceHarness, name: string, status: 'active' | 'suspended' = 'active'): Promise<TestMerchant> {
  const em = h.orm.em.fork();
  const generated = generateApiKey();
  const account = em.create(Account, { name, status });
  const apiKey = em.create(ApiKey, { account, keyId: generated.keyId, secretHash: hashSecret(generated.secret), name: 'k' });
  await em.flush();
  await saveAccountXpubs(h.orm.em.fork(), account.id, testMnemonicAccountKeys());
  return { accountId: account.id, key: generated.plaintext, apiKeyId: apiKey.id };
}

/** A request created through the domain service from a REST body (the spec's field names), as the REST route does. */
export async function createRequest(service: PaymentRequestService, principal: CryptoPrincipal, body: Record<string, unknown>): Promise<PaymentRequest> {
  return (await service.create(principal, draftFromBody(body))).paymentRequest;
}
