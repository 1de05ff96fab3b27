// bnpl's test harness: the kit's real-service harness (fresh migrated database, free port) with bnpl's definition,
// and the one factory of merchants with their dashboard credentials.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServiceHarness, type ServiceHarness, type ServiceHarnessOptions } from '@tributary/kit/testing';
import { ApiKey, generateKeyPair, hashSecretKey, type ApiKeyEnvironment } from '../src/modules/api-keys/index.js';
import { bookLoan, findLoanOfSession, type Loan, type LoanStatus } from '../src/modules/loans/index.js';
import { DashboardToken, generateDashboardToken, hashDashboardToken } from '../src/modules/merchant-auth/index.js';
import { Merchant, MerchantUser } from '../src/modules/merchants/index.js';
import { planById, type PlanId } from '../src/modules/plans/index.js';
import { WidgetSession, generateSessionToken } from '../src/modules/widget-sessions/index.js';
import { bnplService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
/** `env` adds service variables to the test config (e.g. WEBHOOK_ALLOW_PRIVATE_HOSTS, SECRETS_ENCRYPTION_KEY). */
export const startHarness = (options: ServiceHarnessOptions = {}): Promise<ServiceHarness> => startServiceHarness(bnplService, options);

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

export interface CheckoutLoanOptions {
  amountCents?: number;
  planId?: string;
  /** The shopper's e-mail at checkout (test-mode triggers such as `+refund_fails` go here). */
  email?: string;
  orderReference?: string;
  /** A live-mode session (a live key's); default test mode. */
  livemode?: boolean;
  currency?: string;
}

/**
 * A loan booked the way a shopper books one: a test-mode widget session, then the hosted checkout page confirmed over
 * HTTP (plan, e-mail, terms). Returns the loan, with its installments.
 */
export async function checkoutLoan(h: ServiceHarness, merchant: Merchant | TestMerchant, options: CheckoutLoanOptions = {}): Promise<Loan> {
  const session = await createWidgetSession(h, merchant, {
    amountCents: options.amountCents ?? 12_000,
    livemode: options.livemode ?? false,
    currency: options.currency ?? 'USD',
    ...(options.orderReference ? { orderReference: options.orderReference } : {}),
  });
  const page = `${h.service.url}/checkout/${session.token}`;
  const opened = await fetch(page);
  if (opened.status !== 200) throw new Error(`checkout page answered ${opened.status}`);
  const confirmed = await fetch(page, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ plan_id: options.planId ?? 'pay_in_4', email: options.email ?? 'jo@example.com', terms: 'accepted' }).toString(),
    redirect: 'manual',
  });
  if (confirmed.status !== 303) throw new Error(`checkout confirm answered ${confirmed.status}`);
  const loan = await findLoanOfSession(h.orm.em.fork(), session.id);
  if (!loan) throw new Error('checkout booked no loan');
  return loan;
}

/** What an operator command printed and how it exited. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

const adminDispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));

/** `npm run admin -- bnpl <args>` through the real entry point (services/stack/bin/admin.mjs) on the harness's database. */
export function runAdmin(h: ServiceHarness, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [adminDispatcher, 'bnpl', ...args], { env: { ...process.env, DATABASE_URL: h.db.url } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** runAdmin with --json: exactly one JSON document on stdout (else it throws). */
export async function runAdminJson(h: ServiceHarness, ...args: string[]): Promise<{ code: number; body: Record<string, unknown>; stderr: string }> {
  const run = await runAdmin(h, ...args, '--json');
  const lines = run.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line, got: ${run.stdout}`);
  return { code: run.code, body: JSON.parse(lines[0]!) as Record<string, unknown>, stderr: run.stderr };
}

/**
 * A loan booked through the loans module (bookLoan, as checkout books one) but without its lifecycle workflow, already
 * funded at `disbursedAt`: for tests of what follows funding (settlements) that must not race a worker funding it at
 * the real time. Pay in 4, shopper jo@example.com.
 */
export async function createFundedLoan(h: ServiceHarness, merchant: Merchant | TestMerchant, options: { amountCents: number; disbursedAt: Date; livemode?: boolean; currency?: string }): Promise<Loan> {
  const session = await createWidgetSession(h, merchant, { amountCents: options.amountCents, livemode: options.livemode ?? false, currency: options.currency ?? 'USD', status: 'authorized', authorizedAt: options.disbursedAt });
  return h.orm.em.fork().transactional(async (tx) => {
    const loan = await bookLoan(tx, { session: await tx.findOneOrFail(WidgetSession, { id: session.id }, { populate: ['merchant'] }), plan: planById('pay_in_4'), customer: { email: 'jo@example.com', phone: null }, bookedAt: options.disbursedAt });
    loan.status = 'funded';
    loan.disbursedAt = options.disbursedAt;
    await tx.flush();
    return loan;
  });
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
