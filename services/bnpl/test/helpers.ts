// bnpl's test harness: the kit's real-service harness (fresh migrated database, free port) with bnpl's definition,
// and the one factory of merchants with their dashboard credentials.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { ApiKey, generateKeyPair, hashSecretKey, type ApiKeyEnvironment } from '../src/modules/api-keys/index.js';
import { bookLoan, type Loan, type LoanStatus } from '../src/modules/loans/index.js';
import { DashboardToken, generateDashboardToken, hashDashboardToken } from '../src/modules/merchant-auth/index.js';
import { Merchant, MerchantUser } from '../src/modules/merchants/index.js';
import { planById, type PlanId } from '../src/modules/plans/index.js';
import { WidgetSession, generateSessionToken } from '../src/modules/widget-sessions/index.js';
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

/** The fields a test may set on a widget session (everything else has a working default). */
export type WidgetSessionOverrides = Partial<
  Pick<
    WidgetSession,
    | 'token'
    | 'livemode'
    | 'status'
    | 'amountCents'
    | 'currency'
    | 'orderReference'
    | 'customerEmail'
    | 'customerPhone'
    | 'purchaseDescription'
    | 'successUrl'
    | 'cancelUrl'
    | 'expiresAt'
    | 'authorizedAt'
    | 'cancelledAt'
  >
>;

/**
 * A widget session made through the entity (as POST /api/v1/widget/sessions stores one): test mode, initialized,
 * USD 120.00 (Pay in 4 covers it), shopper e-mail and phone prefilled, 30 minutes to live.
 */
export async function createWidgetSession(h: ServiceHarness, merchant: Merchant | TestMerchant, overrides: WidgetSessionOverrides = {}): Promise<WidgetSession> {
  const em = h.orm.em.fork();
  const merchantId = merchant instanceof Merchant ? merchant.id : merchant.merchant.id;
  const session = em.create(WidgetSession, {
    token: generateSessionToken(),
    merchant: merchantId,
    livemode: false,
    status: 'initialized',
    amountCents: 12_000,
    currency: 'USD',
    orderReference: `order-${crypto.randomUUID().slice(0, 8)}`,
    customerEmail: 'shopper@example.com',
    customerPhone: '+14155550123',
    purchaseDescription: 'Walnut desk lamp',
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    expiresAt: new Date(Date.now() + 30 * 60_000),
    authorizedAt: null,
    cancelledAt: null,
    idempotencyKey: null,
    idempotencyFingerprint: null,
    ...overrides,
  });
  await em.flush();
  return session;
}

export interface TestApiKey {
  key: ApiKey;
  publicKey: string;
  /** The secret key, in plaintext. */
  secretKey: string;
  /** KEYS: `Authorization: Bearer <secret key>` + `X-Merchant-Public-Key`. */
  keys: Record<string, string>;
  /** PK: `X-Merchant-Public-Key` alone. */
  pk: Record<string, string>;
}

/** An API key pair of the merchant in `environment` (`test` or `live`), made through the entity; the one factory of credentials. */
export async function createApiKey(h: ServiceHarness, merchant: Merchant | TestMerchant, environment: ApiKeyEnvironment, fields: Partial<Pick<ApiKey, 'revokedAt' | 'name'>> = {}): Promise<TestApiKey> {
  const em = h.orm.em.fork();
  const owner = merchant instanceof Merchant ? merchant : merchant.merchant;
  const { publicKey, secretKey } = generateKeyPair(environment);
  const key = em.create(ApiKey, { merchant: em.getReference(Merchant, owner.id), name: `${environment} key`, environment, publicKey, secretKeyHash: await hashSecretKey(secretKey), revokedAt: null, ...fields });
  await em.flush();
  const pk = { 'x-merchant-public-key': publicKey };
  return { key, publicKey, secretKey, keys: { authorization: `Bearer ${secretKey}`, ...pk }, pk };
}

/** What a test may set on a loan made by createLoan (everything else comes from the booking). */
export interface LoanOverrides {
  status?: LoanStatus;
  amountCents?: number;
  orderReference?: string;
  customerEmail?: string;
  customerPhone?: string | null;
  /** The booking moment: created_at, and the start of the installment schedule. */
  bookedAt?: Date;
  planId?: PlanId;
}

/**
 * A loan booked as checkout books it (`bookLoan`, the loans module's own path, in a transaction), on an authorized
 * widget session of the merchant; `status` overrides the booked `approved` afterwards. Pay in 4, USD 120.00 by default.
 */
export async function createLoan(h: ServiceHarness, merchant: Merchant | TestMerchant, overrides: LoanOverrides = {}): Promise<Loan> {
  const session = await createWidgetSession(h, merchant, {
    status: 'authorized',
    amountCents: overrides.amountCents ?? 12_000,
    ...(overrides.orderReference !== undefined ? { orderReference: overrides.orderReference } : {}),
  });
  return h.orm.em.fork().transactional(async (tx) => {
    const loan = await bookLoan(tx, {
      session: await tx.findOneOrFail(WidgetSession, session.id),
      plan: planById(overrides.planId ?? 'pay_in_4'),
      customer: { email: overrides.customerEmail ?? 'shopper@example.com', phone: overrides.customerPhone === undefined ? '+14155550123' : overrides.customerPhone },
      bookedAt: overrides.bookedAt ?? new Date(),
    });
    if (overrides.status) loan.status = overrides.status;
    await tx.flush();
    return loan;
  });
}
