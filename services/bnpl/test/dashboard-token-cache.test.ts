// Verified dashboard tokens are cached briefly, so a dashboard's requests do not each read the token row, without
// letting a token outlive its expiry or a logout: expiry is checked on every request (to the millisecond); a logout
// on this process is effective on the next request; a revocation elsewhere (another instance, an operator) within the
// 5-second TTL. Decisions: "Dashboard token verification cache".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DashboardLoginService,
  DashboardToken,
  MerchantAuthService,
  VERIFIED_DASHBOARD_TOKEN_TTL_MS,
  VerifiedDashboardTokenCache,
  hashDashboardToken,
} from '../src/modules/merchant-auth/index.js';
import { createSmtpMailer } from '../src/mail/index.js';
import { createMerchant, startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const bearer = (token: string) => `Bearer ${token}`;
const refused = { kind: 'authentication' };

describe('verified dashboard token cache', () => {
  it('answers a verified token from memory: revoked by another process, it still works within the TTL, then not', async () => {
    expect(VERIFIED_DASHBOARD_TOKEN_TTL_MS).toBeLessThanOrEqual(5_000);
    let now = 1_000_000;
    const cache = new VerifiedDashboardTokenCache({ now: () => now });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedDashboardTokens: cache });
    const shop = await createMerchant(h, 'Token Cache Shop');
    expect(await auth.authenticateDashboard(bearer(shop.token))).toMatchObject({ kind: 'dashboard', merchantId: shop.merchant.id, merchantUserId: shop.user.id });
    await h.orm.em.fork().nativeUpdate(DashboardToken, { tokenHash: hashDashboardToken(shop.token) }, { revokedAt: new Date() });
    now += VERIFIED_DASHBOARD_TOKEN_TTL_MS;
    expect(await auth.authenticateDashboard(bearer(shop.token))).toMatchObject({ merchantId: shop.merchant.id });
    now += 1;
    await expect(auth.authenticateDashboard(bearer(shop.token))).rejects.toMatchObject(refused);
    expect(cache.size).toBe(0);
  });

  it('a cached token is refused the moment its expiry passes', async () => {
    const expiresAt = new Date('2031-05-01T12:00:00.000Z');
    let now = new Date(expiresAt.getTime() - 60_000);
    const cache = new VerifiedDashboardTokenCache({ now: () => 0 });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedDashboardTokens: cache, clock: () => now });
    const shop = await createMerchant(h, 'Expiring Token Shop', { expiresAt });
    await auth.authenticateDashboard(bearer(shop.token));
    now = new Date(expiresAt.getTime() - 1);
    expect(await auth.authenticateDashboard(bearer(shop.token))).toMatchObject({ merchantId: shop.merchant.id });
    expect(cache.size).toBe(1);
    now = expiresAt;
    await expect(auth.authenticateDashboard(bearer(shop.token))).rejects.toMatchObject(refused);
  });

  it('a logout through DashboardLoginService drops the token at once; other tokens stay', async () => {
    const cache = new VerifiedDashboardTokenCache({ now: () => 0 });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedDashboardTokens: cache });
    const login = new DashboardLoginService(h.orm.em.fork(), { mailer: createSmtpMailer({ url: 'smtp://127.0.0.1:9', from: 'n/a@example.test' }), verifiedDashboardTokens: cache });
    const leaving = await createMerchant(h, 'Leaving Shop');
    const staying = await createMerchant(h, 'Staying Shop');
    const principal = await auth.authenticateDashboard(bearer(leaving.token));
    await auth.authenticateDashboard(bearer(staying.token));
    expect(cache.size).toBe(2);
    await login.logout(principal);
    expect(cache.size).toBe(1);
    await expect(auth.authenticateDashboard(bearer(leaving.token))).rejects.toMatchObject(refused);
    expect(await auth.authenticateDashboard(bearer(staying.token))).toMatchObject({ merchantId: staying.merchant.id });
  });

  it('unknown, revoked and malformed tokens are not remembered (each is looked up again)', async () => {
    const cache = new VerifiedDashboardTokenCache({ now: () => 0 });
    const auth = new MerchantAuthService(h.orm.em.fork(), { verifiedDashboardTokens: cache });
    const revoked = await createMerchant(h, 'Revoked Token Shop', { revokedAt: new Date() });
    await expect(auth.authenticateDashboard(bearer(revoked.token))).rejects.toMatchObject(refused);
    await expect(auth.authenticateDashboard(bearer(`dt_${'x'.repeat(48)}`))).rejects.toMatchObject(refused);
    await expect(auth.authenticateDashboard(bearer('not a token'))).rejects.toMatchObject(refused);
    await expect(auth.authenticateDashboard(undefined)).rejects.toMatchObject(refused);
    expect(cache.size).toBe(0);
    // Restored in the database, the same token works at once: the refusal was not cached.
    await h.orm.em.fork().nativeUpdate(DashboardToken, { tokenHash: hashDashboardToken(revoked.token) }, { revokedAt: null });
    expect(await auth.authenticateDashboard(bearer(revoked.token))).toMatchObject({ merchantId: revoked.merchant.id });
  });

  it('concurrent requests with one token share one lookup', async () => {
    const cache = new VerifiedDashboardTokenCache({ now: () => 0 });
    let lookups = 0;
    const credential = { id: 't', tokenHash: 'h', merchantUserId: 'u', merchantId: 'm', expiresAt: null, revokedAt: null };
    const verify = async () => {
      lookups += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return credential;
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.verifyOnce('h', verify)));
    expect(results.every((result) => result === credential)).toBe(true);
    expect(lookups).toBe(1);
  });
});
