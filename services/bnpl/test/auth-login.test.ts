// The dashboard login (spec "Authentication", issue 8 §1) over HTTP against the real service, with mail over real SMTP
// (an in-process smtp-server): password → e-mailed 6-digit code → dashboard token; logout; the code's rules.
import { SERVICE_NAME } from '../src/service-name.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, loadConfig, DUMMY_PASSWORD_HASH, PASSWORD_BCRYPT_COST, passwordMatches } from '@tributary/kit';
import { startServiceHarness, testTemporalAddress, waitFor, type ServiceHarness } from '@tributary/kit/testing';
import { DEFAULT_MAIL_FROM, DEV_SMTP_URL, smtpUrlOf } from '../src/config.js';
import { createSmtpMailer } from '../src/mail/index.js';
import {
  DASHBOARD_TOKEN_TTL_HOURS,
  DashboardLoginService,
  DashboardToken,
  LOGIN_CODE_MAIL_SUBJECT,
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MINUTES,
  LoginCode,
  VERIFIED_DASHBOARD_TOKEN_TTL_MS,
  hashDashboardToken,
} from '../src/modules/merchant-auth/index.js';
import { MerchantAdminService, MerchantUser } from '../src/modules/merchants/index.js';
import { DEMO_USER_EMAIL, DEMO_USER_PASSWORD, seedDemoData } from '../src/seed.js';
import { bnplEnv, bnplService, startService } from '../src/service.js';
import { startSmtpInbox, type SmtpInbox } from './smtp-inbox.js';
import bcrypt from 'bcryptjs';

const MAIL_FROM = 'BNPL Test <login@bnpl.test>';
const PASSWORD = 'correct horse battery staple';
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };

let inbox: SmtpInbox;
let h: ServiceHarness;
let url: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  h = await startServiceHarness(bnplService, { env: { SMTP_URL: inbox.url, MAIL_FROM } });
  url = h.service.url;
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
  await inbox?.close();
});

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const login = (email: string, password: string, base = url) => post(base, '/api/v1/merchant/auth/login', { email, password });
const verify = (email: string, code: string, base = url) => post(base, '/api/v1/merchant/auth/otp/verify', { email, code });
const apiKeys = (token: string) => fetch(`${url}/api/v1/merchant/api-keys`, { headers: { authorization: `Bearer ${token}` } });

/** A merchant with one dashboard user, onboarded through the operators' domain path. */
async function onboard(name = 'Login Shop'): Promise<{ merchantId: string; userId: string; email: string }> {
  const email = `owner-${crypto.randomUUID()}@shop.test`;
  const { merchant, user } = await new MerchantAdminService(h.orm.em.fork()).createMerchant({ name, email, password: PASSWORD, userName: 'Olive Owner' });
  return { merchantId: merchant.id, userId: user.id, email };
}

/** Logs in and returns the mailed code. */
async function loginCode(email: string, password = PASSWORD): Promise<string> {
  const res = await login(email, password);
  expect(res.status).toBe(200);
  return inbox.latestCode(email);
}

/** A 6-digit code other than `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function expectRefused(res: Response): Promise<void> {
  expect({ status: res.status, body: await res.json(), challenge: res.headers.get('www-authenticate') }).toEqual({ status: 401, body: UNAUTHENTICATED, challenge: 'Bearer' });
}

describe('login → e-mailed code → dashboard token', () => {
  it('answers {otp_sent, merchant_user_id}, mails a 6-digit code over SMTP, and the code buys a working token', async () => {
    const { merchantId, userId, email } = await onboard('Happy Shop');
    const started = await login(email, PASSWORD);
    expect(started.status).toBe(200);
    expect(await started.json()).toEqual({ otp_sent: true, merchant_user_id: userId });

    const mails = inbox.to(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: '"BNPL Test" <login@bnpl.test>', to: [email], subject: LOGIN_CODE_MAIL_SUBJECT });
    const code = inbox.latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(mails[0]!.subject).not.toContain(code);
    expect(mails[0]!.text).toContain(`within ${LOGIN_CODE_TTL_MINUTES} minutes`);

    const verified = await verify(email, code);
    expect(verified.status).toBe(200);
    const body = (await verified.json()) as { token: string; expires_at: string; user: unknown };
    expect(body).toEqual({
      user: { id: userId, email, name: 'Olive Owner', merchant_id: merchantId, merchant_name: 'Happy Shop' },
      token: expect.stringMatching(/^dt_[A-Za-z0-9]{48}$/),
      expires_at: expect.any(String),
    });
    // The DT works on every other /merchant route and on the subgraph.
    expect((await apiKeys(body.token)).status).toBe(200);
    const graphql = await post(url, '/graphql', { query: '{ bnplMerchant { id name } }' }, { authorization: `Bearer ${body.token}` });
    expect(await graphql.json()).toEqual({ data: { bnplMerchant: { id: merchantId, name: 'Happy Shop' } } });
  });

  it('the seeded demo user signs in with the documented dev password (printed by the seed for npm start)', async () => {
    expect(await seedDemoData(h.orm.em.fork())).toMatchObject({ dashboard_email: DEMO_USER_EMAIL, dashboard_password: 'demo-password-local-only' });
    expect(DEMO_USER_PASSWORD).toBe('demo-password-local-only');
    const code = await loginCode(DEMO_USER_EMAIL, DEMO_USER_PASSWORD);
    const res = await verify(DEMO_USER_EMAIL, code);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { merchant_name: string } }).user.merchant_name).toBe('Demo Shop');
  });

  it('e-mail addresses are case-insensitive', async () => {
    const { email } = await onboard();
    const res = await login(email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    expect((await verify(email.toUpperCase(), inbox.latestCode(email))).status).toBe(200);
  });

  it('stores the code only as a salted HMAC-SHA256, and the password only as a bcrypt hash (cost 12)', async () => {
    const { userId, email } = await onboard();
    const code = await loginCode(email);
    const row = await h.orm.em.fork().findOneOrFail(LoginCode, { user: userId });
    expect(row.codeSalt).toMatch(/^[0-9a-f]{32}$/);
    expect(row.codeHash).toBe(createHmac('sha256', Buffer.from(row.codeSalt, 'hex')).update(code).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(code);
    const user = await h.orm.em.fork().findOneOrFail(MerchantUser, { id: userId });
    expect(bcrypt.getRounds(user.passwordHash!)).toBe(PASSWORD_BCRYPT_COST);
    expect(await bcrypt.compare(PASSWORD, user.passwordHash!)).toBe(true);
  });
});

describe('refusals: one 401 for every reason', () => {
  it('wrong password, unknown e-mail and a user without a password get the same 401, and no mail', async () => {
    const { email } = await onboard();
    const noPassword = `nopassword-${crypto.randomUUID()}@shop.test`;
    const em = h.orm.em.fork();
    const merchant = (await em.findOneOrFail(MerchantUser, { email }, { populate: ['merchant'] })).merchant;
    em.create(MerchantUser, { merchant, email: noPassword, name: 'No Password', passwordHash: null });
    await em.flush();
    const before = inbox.messages.length;
    for (const [who, password] of [[email, 'wrong password entirely'], [`nobody-${crypto.randomUUID()}@shop.test`, PASSWORD], [noPassword, PASSWORD]] as const) {
      await expectRefused(await login(who, password));
    }
    expect(inbox.messages.length).toBe(before);
  });

  it('unknown e-mails are checked against a dummy bcrypt hash of the same cost (the same work as a wrong password)', async () => {
    expect(bcrypt.getRounds(DUMMY_PASSWORD_HASH)).toBe(PASSWORD_BCRYPT_COST);
    // The dummy path answers "no match" even for the value the dummy hash was made from (whatever it was).
    expect(await passwordMatches(PASSWORD, undefined, SERVICE_NAME)).toBe(false);
    expect(await passwordMatches(PASSWORD, null, SERVICE_NAME)).toBe(false);
    expect(await passwordMatches(PASSWORD, await bcrypt.hash(PASSWORD, 4), SERVICE_NAME)).toBe(true);
  });

  it('a password longer than 72 bytes never matches, even when bcrypt would compare only its first 72 bytes', async () => {
    const stored = await bcrypt.hash('x'.repeat(72), 4);
    expect(await bcrypt.compare(`${'x'.repeat(72)}tail`, stored)).toBe(true);
    expect(await passwordMatches(`${'x'.repeat(72)}tail`, stored, SERVICE_NAME)).toBe(false);
  });

  it('a verify without a login, for an unknown e-mail, or with a used code is the same 401', async () => {
    const { email } = await onboard();
    await expectRefused(await verify(email, '123456'));
    await expectRefused(await verify(`nobody-${crypto.randomUUID()}@shop.test`, '123456'));
    const code = await loginCode(email);
    expect((await verify(email, code)).status).toBe(200);
    // Single use.
    await expectRefused(await verify(email, code));
  });

  it('a malformed body is a 422 naming the fields, and costs no try', async () => {
    const { email } = await onboard();
    const bad = await post(url, '/api/v1/merchant/auth/login', { email: 'not an e-mail' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { fields: object } }).error.fields).toEqual({ email: ['Must be an e-mail address.'], password: ['This field is required.'] });
    // Keys that name Object.prototype members are ignored like any unknown key (the fuzz test once got a 500 here).
    const odd = await post(url, '/api/v1/merchant/auth/otp/verify', { toString: '\ud800', '': '', email, code: '000000' });
    expect(odd.status).toBe(401);
    const code = await loginCode(email);
    for (let i = 0; i < LOGIN_CODE_MAX_ATTEMPTS; i += 1) {
      const res = await verify(email, '12345');
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { fields: object } }).error.fields).toEqual({ code: ['Must be the 6-digit code from the e-mail.'] });
    }
    expect((await verify(email, code)).status).toBe(200);
  });
});

describe('the code', () => {
  it('a mistyped code does not burn it', async () => {
    const { email } = await onboard();
    const code = await loginCode(email);
    await expectRefused(await verify(email, otherCode(code)));
    expect((await verify(email, code)).status).toBe(200);
  });

  it(`${LOGIN_CODE_MAX_ATTEMPTS - 1} wrong tries leave it usable; the ${LOGIN_CODE_MAX_ATTEMPTS}th invalidates it (the right code is then refused too)`, async () => {
    const first = await onboard();
    const firstCode = await loginCode(first.email);
    for (let i = 0; i < LOGIN_CODE_MAX_ATTEMPTS - 1; i += 1) await expectRefused(await verify(first.email, otherCode(firstCode)));
    expect((await verify(first.email, firstCode)).status).toBe(200);

    const second = await onboard();
    const code = await loginCode(second.email);
    for (let i = 0; i < LOGIN_CODE_MAX_ATTEMPTS; i += 1) await expectRefused(await verify(second.email, otherCode(code)));
    expect(await h.orm.em.fork().count(LoginCode, { user: second.userId })).toBe(0);
    await expectRefused(await verify(second.email, code));
    // A new login sends a new, working code.
    expect((await verify(second.email, await loginCode(second.email))).status).toBe(200);
  });

  it('an expired code is refused (and dropped)', async () => {
    const { userId, email } = await onboard();
    const code = await loginCode(email);
    await h.orm.em.fork().nativeUpdate(LoginCode, { user: userId }, { expiresAt: new Date(Date.now() - 1_000) });
    await expectRefused(await verify(email, code));
    expect(await h.orm.em.fork().count(LoginCode, { user: userId })).toBe(0);
  });

  it(`lives exactly ${LOGIN_CODE_TTL_MINUTES} minutes (injected clock)`, async () => {
    const mailer = createSmtpMailer({ url: inbox.url, from: MAIL_FROM });
    let now = new Date('2030-01-01T10:00:00Z');
    const service = new DashboardLoginService(h.orm.em.fork(), { mailer, clock: () => now });
    try {
      const { email } = await onboard();
      await service.login({ email, password: PASSWORD });
      now = new Date(now.getTime() + LOGIN_CODE_TTL_MINUTES * 60_000 - 1);
      const issued = await service.verify({ email, code: inbox.latestCode(email) });
      expect(issued.expiresAt).toEqual(new Date(now.getTime() + DASHBOARD_TOKEN_TTL_HOURS * 3_600_000));

      now = new Date('2030-01-01T10:00:00Z');
      await service.login({ email, password: PASSWORD });
      now = new Date(now.getTime() + LOGIN_CODE_TTL_MINUTES * 60_000);
      await expect(service.verify({ email, code: inbox.latestCode(email) })).rejects.toMatchObject({ kind: 'authentication' });
    } finally {
      mailer.close();
    }
  });

  it('a new login replaces the previous code', async () => {
    const { email } = await onboard();
    const first = await loginCode(email);
    let second = await loginCode(email);
    // One chance in a million that both are the same number: then the test could not tell them apart.
    while (second === first) second = await loginCode(email);
    expect(inbox.to(email).length).toBeGreaterThanOrEqual(2);
    await expectRefused(await verify(email, first));
    expect((await verify(email, second)).status).toBe(200);
  });

  it('two concurrent verifications of one code issue one token', async () => {
    const { userId, email } = await onboard();
    const code = await loginCode(email);
    const statuses = (await Promise.all([verify(email, code), verify(email, code), verify(email, code)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401]);
    expect(await h.orm.em.fork().count(DashboardToken, { user: userId })).toBe(1);
  });
});

describe('the dashboard token', () => {
  async function signIn(email: string): Promise<{ token: string; expires_at: string }> {
    const res = await verify(email, await loginCode(email));
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; expires_at: string };
  }

  it(`is valid ${DASHBOARD_TOKEN_TTL_HOURS} hours (expires_at stored and returned), then refused`, async () => {
    const { email } = await onboard();
    const before = Date.now();
    const { token, expires_at: expiresAt } = await signIn(email);
    const row = await h.orm.em.fork().findOneOrFail(DashboardToken, { tokenHash: hashDashboardToken(token) });
    expect(row.expiresAt!.toISOString()).toBe(expiresAt);
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(DASHBOARD_TOKEN_TTL_HOURS * 3_600_000);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect((await apiKeys(token)).status).toBe(200);
    // Expired in the database (as an operator would): refused once the service's few-second cache entry ends
    // (dashboard-token-cache.test.ts checks an expiry reached by the clock, which is honoured at once).
    await h.orm.em.fork().nativeUpdate(DashboardToken, { id: row.id }, { expiresAt: new Date(Date.now() - 1) });
    const started = Date.now();
    await expectRefused(await waitFor(() => apiKeys(token), (res) => res.status !== 200, VERIFIED_DASHBOARD_TOKEN_TTL_MS + 5_000));
    expect(Date.now() - started).toBeLessThanOrEqual(VERIFIED_DASHBOARD_TOKEN_TTL_MS + 1_000);
  });

  it('logout (204) revokes the calling token only; it then answers 401 everywhere', async () => {
    const { email } = await onboard();
    const first = await signIn(email);
    const second = await signIn(email);
    const out = await post(url, '/api/v1/merchant/auth/logout', undefined, { authorization: `Bearer ${first.token}` });
    expect(out.status).toBe(204);
    expect(await out.text()).toBe('');
    await expectRefused(await apiKeys(first.token));
    await expectRefused(await post(url, '/api/v1/merchant/auth/logout', undefined, { authorization: `Bearer ${first.token}` }));
    expect((await apiKeys(second.token)).status).toBe(200);
    await expectRefused(await post(url, '/api/v1/merchant/auth/logout', undefined));
  });
});

describe('logs', () => {
  it('never carry the code or the password (a second instance logging at trace level)', async () => {
    let lines = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines += chunk.toString('utf8');
        done();
      },
    });
    const config = loadConfig(bnplEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: testTemporalAddress(), SMTP_URL: inbox.url, MAIL_FROM });
    const logged = await startService({ ...config, PORT: 0 }, createLogger({ service: 'bnpl', level: 'trace', destination: sink }));
    try {
      const { email } = await onboard();
      expect((await login(email, PASSWORD, logged.url)).status).toBe(200);
      const code = inbox.latestCode(email);
      expect((await verify(email, otherCode(code), logged.url)).status).toBe(401);
      const res = await verify(email, code, logged.url);
      expect(res.status).toBe(200);
      const { token } = (await res.json()) as { token: string };
      // The requests were logged (at trace level, with headers), their secrets were not.
      expect(lines.match(/"url":"\/api\/v1\/merchant\/auth\/otp\/verify"/g)).toHaveLength(2);
      for (const secret of [code, PASSWORD, token]) expect(lines).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});

describe('mail configuration', () => {
  const base = { NODE_ENV: 'development', PORT: '1', DATABASE_URL: 'postgres://x@127.0.0.1/x' };

  it('SMTP_URL is required with NODE_ENV=production; otherwise unset means MailDev on 127.0.0.1:1025', () => {
    const productionKey = { SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(() => loadConfig(bnplEnv, { ...base, ...productionKey, NODE_ENV: 'production' })).toThrow('Invalid configuration: SMTP_URL is required');
    const dev = loadConfig(bnplEnv, base);
    expect(smtpUrlOf(dev)).toBe(DEV_SMTP_URL);
    expect(DEV_SMTP_URL).toBe('smtp://127.0.0.1:1025');
    expect(dev.MAIL_FROM).toBe(DEFAULT_MAIL_FROM);
    expect(smtpUrlOf(loadConfig(bnplEnv, { ...base, ...productionKey, NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@mail.example:465' }))).toBe('smtps://u:p@mail.example:465');
    expect(() => loadConfig(bnplEnv, { ...base, NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@mail.example:465' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
    expect(() => loadConfig(bnplEnv, { ...base, SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
  });
});

describe('mail server unreachable', () => {
  it('the login answers 500 internal_error (the password was right, but no code could be sent)', async () => {
    const closed = await startSmtpInbox();
    const down = closed.url;
    await closed.close();
    const config = loadConfig(bnplEnv, { NODE_ENV: 'test', PORT: '1', DATABASE_URL: h.db.url, TEMPORAL_ADDRESS: testTemporalAddress(), SMTP_URL: down });
    const service = await startService({ ...config, PORT: 0 }, createLogger({ service: 'bnpl', level: 'silent' }));
    try {
      const { email } = await onboard();
      const res = await login(email, PASSWORD, service.url);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } });
    } finally {
      await service.close();
    }
  });
});
