// crypto's test harness: the kit's real-service harness (fresh migrated database, free port) with crypto's definition,
// and a merchant made the way the operator makes one.
import { randomInt } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { secretBoxFor, type SecretBox } from '@tributary/kit';
import { startServiceHarness, type ServiceHarness, type ServiceHarnessOptions } from '@tributary/kit/testing';
import { AccountAdminService, ApiKey, type AccountStatus, type CryptoPrincipal } from '../src/modules/accounts/index.js';
import { draftFromBody, type PaymentRequest, type PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { cryptoService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';

/**
 * Suites run in parallel against one Litecoin regtest node and one anvil per EVM chain, each with its own database, and
 * a test account's receive keys are the test mnemonic's BIP32 account n' for account id n: with every database's ids
 * starting at 1, two suites' first merchants had the same addresses, and one suite's payment could land on the other's
 * request. Each harness's account ids start at a random base instead (10,000,000 to 1,000,000,000: below BIP32's
 * hardened limit, clear of the fixed "another key" accounts tests use), so suites never share an address.
 */
export const SUITE_ACCOUNT_ID_RANGE = { min: 10_000_000, max: 1_000_000_000 } as const;

export async function startHarness(options: ServiceHarnessOptions = {}): Promise<ServiceHarness> {
  const h = await startServiceHarness(cryptoService, options);
  const base = randomInt(SUITE_ACCOUNT_ID_RANGE.min, SUITE_ACCOUNT_ID_RANGE.max);
  await h.orm.em.getConnection().execute(`alter sequence "accounts_id_seq" restart with ${base}`);
  return h;
}

export interface TestMerchant {
  accountId: number;
  /** The API key `<KEY_ID>.<SECRET>`. */
  key: string;
  apiKeyId: number;
  /** The account's webhook signing secret `whsec_…`. */
  signingSecret: string;
}

export interface TestMerchantOptions {
  status?: AccountStatus;
  /** The API key's name (default `k`). */
  keyName?: string;
  /** Seals the signing secret; default the box of the harness's service (no SECRETS_ENCRYPTION_KEY: the dev key). */
  box?: SecretBox;
}

/**
 * The one merchant factory of crypto's tests, through the operator's path (`account create` + `key create`): an
 * account with its OWN receive keys (the public test mnemonic's BIP32 account n' for account id n, so two merchants
 * never share an address), a webhook signing secret and one API key. `db` is a harness or anything holding its ORM.
 */
export async function createMerchant(db: { orm: MikroORM }, name: string, options: TestMerchantOptions = {}): Promise<TestMerchant> {
  const admin = new AccountAdminService(db.orm.em.fork(), options.box ?? secretBoxFor({ NODE_ENV: 'test' }));
  const created = await admin.createAccount({ name });
  const accountId = created.account.id;
  if (options.status && options.status !== created.account.status) await admin.setStatus(accountId, options.status);
  const { key, keyId } = await admin.createApiKey(accountId, options.keyName ?? 'k');
  const apiKey = await db.orm.em.fork().findOneOrFail(ApiKey, { keyId });
  return { accountId, key, apiKeyId: apiKey.id, signingSecret: created.signingSecret };
}

/** A request created through the domain service from a REST body (the spec's field names), as the REST route does. */
export async function createRequest(service: PaymentRequestService, principal: CryptoPrincipal, body: Record<string, unknown>): Promise<PaymentRequest> {
  return (await service.create(principal, draftFromBody(body))).paymentRequest;
}
