// bnpl's test harness: the kit's real-service harness (fresh migrated database, free port) with bnpl's definition,
// and the one factory of merchants with their dashboard credentials.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { DashboardToken, generateDashboardToken, hashDashboardToken } from '../src/modules/merchant-auth/index.js';
import { Merchant, MerchantUser } from '../src/modules/merchants/index.js';
import { bnplService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
/** `env` adds service variables to the test config (e.g. WEBHOOK_ALLOW_PRIVATE_HOSTS, SECRETS_ENCRYPTION_KEY). */
export const startHarness = (options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServiceHarness> => startServiceHarness(bnplService, options);

export interface TestMerchant {
  merchant: Merchant;
  user: MerchantUser;
  /** The dashboard token (DT), in plaintext. */
  token: string;
}

/** A merchant with one dashboard user and a dashboard token, made through the entities (the login flow comes later). */
export async function createMerchant(h: ServiceHarness, name: string, token: Partial<Pick<DashboardToken, 'revokedAt' | 'expiresAt'>> = {}): Promise<TestMerchant> {
  const em = h.orm.em.fork();
  const merchant = em.create(Merchant, { name });
  const user = em.create(MerchantUser, { merchant, email: `${crypto.randomUUID()}@example.test`, name: 'Owner' });
  const plaintext = generateDashboardToken();
  em.create(DashboardToken, { user, tokenHash: hashDashboardToken(plaintext), revokedAt: null, expiresAt: null, ...token });
  await em.flush();
  return { merchant, user, token: plaintext };
}
