// The bnpl operator commands end to end: the real entry point (`npm run admin` → services/stack/bin/admin.mjs →
// services/bnpl/dist/admin/cli.js, built by `npm test`) against a real, migrated database, and their effect on the
// running HTTP service (a merchant onboarded by the command signs in over HTTP with a code mailed over SMTP).
import { PASSWORD_BCRYPT_COST } from '@tributary/kit';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { Merchant, MerchantUser } from '../src/modules/merchants/index.js';
import { bnplService } from '../src/service.js';
import { runAdmin, runAdminJson } from './helpers.js';
import { startSmtpInbox, type SmtpInbox } from './smtp-inbox.js';

const PASSWORD = 'operator-chosen-password';
let h: ServiceHarness;
let inbox: SmtpInbox;

const admin = (...args: string[]) => runAdmin(h, ...args);
const adminJson = (...args: string[]) => runAdminJson(h, ...args);

const email = (who: string) => `${who}-${crypto.randomUUID()}@merchant.test`;
const merchantRow = (id: string) => h.orm.em.fork().findOneOrFail(Merchant, { id });

async function signIn(address: string, password: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const post = (path: string, body: unknown) =>
    fetch(`${h.service.url}/api/v1/merchant/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const started = await post('login', { email: address, password });
  if (started.status !== 200) return { status: started.status, body: (await started.json()) as Record<string, unknown> };
  const verified = await post('otp/verify', { email: address, code: inbox.latestCode(address) });
  return { status: verified.status, body: (await verified.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  h = await startServiceHarness(bnplService, { env: { SMTP_URL: inbox.url } });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await inbox?.close();
});

describe('admin bnpl (real entry point, real database)', () => {
  let merchantId: string;

  it('merchant create → the merchant (MDR 290 bps, weekly by default) and its user, who signs in over HTTP', async () => {
    const owner = email('owner');
    const { code, body } = await adminJson('merchant', 'create', '--name', 'Corner Shop', '--email', owner, '--password', PASSWORD);
    expect(code).toBe(0);
    expect(body).toEqual({
      merchant_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Corner Shop',
      mdr_bps: 290,
      settlement_cadence: 'weekly',
      user: { merchant_user_id: expect.any(String), email: owner, name: owner.split('@')[0] },
    });
    merchantId = body.merchant_id as string;
    const user = await h.orm.em.fork().findOneOrFail(MerchantUser, { email: owner });
    expect(bcrypt.getRounds(user.passwordHash!)).toBe(PASSWORD_BCRYPT_COST);
    const signedIn = await signIn(owner, PASSWORD);
    expect(signedIn).toMatchObject({ status: 200, body: { user: { email: owner, merchant_id: merchantId, merchant_name: 'Corner Shop' } } });
  }, 30_000);

  it('merchant create takes --mdr-bps, --cadence and --user-name; the e-mail is stored lowercased; text output by default', async () => {
    const owner = email('Mixed.Case');
    const run = await admin('merchant', 'create', '--name=Big Store', `--email=${owner}`, '--password', PASSWORD, '--mdr-bps', '150', '--cadence', 'monthly', '--user-name', 'Ada Owner');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created merchant [0-9a-f-]{36} "Big Store" \(MDR 150 bps = 1\.50 %, monthly settlement\)\.\n/);
    expect(run.stdout).not.toContain(PASSWORD);
    const user = await h.orm.em.fork().findOneOrFail(MerchantUser, { email: owner.toLowerCase() }, { populate: ['merchant'] });
    expect({ name: user.name, mdr: user.merchant.mdrBps, cadence: user.merchant.settlementCadence }).toEqual({ name: 'Ada Owner', mdr: 150, cadence: 'monthly' });
  }, 30_000);

  it('refuses bad values with exit 2 and one line naming the option; nothing is created; the password is never echoed', async () => {
    const before = await h.orm.em.fork().count(Merchant);
    const cases: Array<[string[], RegExp]> = [
      [['--email', 'not-an-email'], /--email: Must be an e-mail address\./],
      [['--password', 'short'], /--password: Must be at least 12 characters\./],
      [['--password', 'é'.repeat(40)], /--password: Must be at most 72 bytes/],
      [['--mdr-bps', '10001'], /MDR \(basis points\): Must be between 0 and 10000 basis points\./],
      [['--mdr-bps', '2.9'], /--mdr-bps must be a whole number of basis points/],
      [['--cadence', 'hourly'], /cadence must be one of daily, weekly, monthly/],
    ];
    for (const [override, message] of cases) {
      const args = new Map([['--name', 'Bad Shop'], ['--email', email('bad')], ['--password', PASSWORD]]);
      for (let i = 0; i < override.length; i += 2) args.set(override[i]!, override[i + 1]!);
      const run = await admin('merchant', 'create', ...[...args].flat());
      expect({ override, code: run.code }).toEqual({ override, code: 2 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain(PASSWORD);
    }
    expect(await h.orm.em.fork().count(Merchant)).toBe(before);
  }, 120_000);

  it('an e-mail that already signs in somewhere is refused (exit 2, conflict)', async () => {
    const taken = (await h.orm.em.fork().findOneOrFail(MerchantUser, { merchant: merchantId })).email;
    const again = await adminJson('merchant', 'create', '--name', 'Copycat', '--email', taken.toUpperCase(), '--password', PASSWORD);
    expect(again).toMatchObject({ code: 2, body: { error: { code: 'conflict', message: `A dashboard user with e-mail ${taken} already exists.` } } });
    const added = await adminJson('user', 'add', '--merchant', merchantId, '--email', taken, '--password', PASSWORD);
    expect(added).toMatchObject({ code: 2, body: { error: { code: 'conflict' } } });
  }, 30_000);

  it('user add → another user of the merchant, who signs in with its own password', async () => {
    const clerk = email('clerk');
    const { code, body } = await adminJson('user', 'add', '--merchant', merchantId, '--email', clerk, '--password', 'clerk-password-123', '--user-name', 'Clerk');
    expect(code).toBe(0);
    expect(body).toEqual({ merchant_user_id: expect.any(String), email: clerk, name: 'Clerk', merchant_id: merchantId });
    expect(await signIn(clerk, PASSWORD)).toMatchObject({ status: 401 });
    expect(await signIn(clerk, 'clerk-password-123')).toMatchObject({ status: 200, body: { user: { merchant_id: merchantId, name: 'Clerk' } } });
    expect(await adminJson('user', 'add', '--merchant', crypto.randomUUID(), '--email', email('x'), '--password', PASSWORD)).toMatchObject({ code: 1, body: { error: { code: 'not_found' } } });
  }, 30_000);

  it('merchant cadence ID daily|weekly|monthly (changed: false when it already was)', async () => {
    expect(await adminJson('merchant', 'cadence', merchantId, 'daily')).toEqual({
      code: 0,
      stderr: '',
      body: { merchant_id: merchantId, name: 'Corner Shop', mdr_bps: 290, settlement_cadence: 'daily', changed: true },
    });
    expect(await adminJson('merchant', 'cadence', merchantId, 'daily')).toMatchObject({ code: 0, body: { changed: false } });
    expect((await merchantRow(merchantId)).settlementCadence).toBe('daily');
    expect(await adminJson('merchant', 'cadence', merchantId, 'yearly')).toMatchObject({ code: 2, body: { error: { code: 'usage' } } });
  }, 30_000);

  it('merchant mdr ID BPS within 0..10000', async () => {
    expect(await adminJson('merchant', 'mdr', merchantId, '0')).toMatchObject({ code: 0, body: { mdr_bps: 0, changed: true } });
    const human = await admin('merchant', 'mdr', merchantId, '10000');
    expect(human).toEqual({ code: 0, stderr: '', stdout: `Merchant ${merchantId} MDR is 10000 bps (100.00 %).\n` });
    expect(await adminJson('merchant', 'mdr', merchantId, '10001')).toMatchObject({ code: 2, body: { error: { code: 'invalid_argument', message: 'MDR (basis points): Must be between 0 and 10000 basis points.' } } });
    expect(await adminJson('merchant', 'mdr', merchantId, '-1')).toMatchObject({ code: 2, body: { error: { code: 'usage' } } });
    expect((await merchantRow(merchantId)).mdrBps).toBe(10_000);
  }, 30_000);

  it('bad command lines exit 2 with one usage line; unknown merchants exit 1', async () => {
    for (const args of [[], ['frobnicate'], ['merchant'], ['merchant', 'create'], ['merchant', 'create', '--name'], ['merchant', 'mdr', merchantId], ['user', 'add', '--merchant', merchantId, '--bogus', 'x'], ['merchant', 'create', '--name', 'A', '--name', 'B', '--email', email('d'), '--password', PASSWORD]]) {
      const run = await admin(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^usage error: /);
    }
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      expect(await adminJson('merchant', 'mdr', id, '100')).toEqual({ code: 1, stderr: `error: No merchant with id ${id}.\n`, body: { error: { code: 'not_found', message: `No merchant with id ${id}.` } } });
    }
    const help = await admin('help');
    expect(help.code).toBe(0);
    for (const command of ['merchant create', 'merchant cadence', 'merchant mdr', 'user add']) expect(help.stdout).toContain(command);
  }, 120_000);
});
