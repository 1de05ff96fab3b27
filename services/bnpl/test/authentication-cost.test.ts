// A request without valid credentials costs the server almost nothing (README "Security"): a missing or malformed
// credential is refused before any lookup, an unknown one after one indexed read; bcrypt runs only for a known public
// key (the spec stores secret keys as bcrypt hashes) and for a login (counted by the kit's slowHashComparisons, never
// by timing). Failed authentications spend a per-client-IP
// budget: once spent, the next credential is refused (429) before it is looked up; a working credential spends nothing.
// The login limits hold however the path is spelled.
// TRUST_PROXY=loopback lets each request name its client IP in X-Forwarded-For, so one test plays several clients.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { slowHashComparisons } from '@tributary/kit';
import { otherSpellings } from '@tributary/kit/testing';
import { SERVICE_NAME } from '../src/service-name.js';
import { createApiKey, createMerchant, startHarness } from './helpers.js';

const FAILURES = 3;
let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;
const unknownDashboardToken = () => `dt_${randomUUID().replaceAll('-', '')}${'A'.repeat(16)}`;
const unknownPublicKey = () => `pk_test_${randomUUID().replaceAll('-', '')}`;

async function bcryptRuns(): Promise<number> {
  return (await slowHashComparisons.get()).values.filter((v) => v.labels.service === SERVICE_NAME).reduce((sum, v) => sum + v.value, 0);
}

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness({ env: { TRUST_PROXY: 'loopback', BNPL_AUTH_FAILURE_LIMIT_PER_IP: String(FAILURES) } });
});
afterAll(async () => {
  await h?.close();
});

const get = (path: string, headers: Record<string, string>) => fetch(`${h.service.url}${path}`, { headers: { 'x-forwarded-for': freshIp(), ...headers } });
const createSession = (headers: Record<string, string>) =>
  fetch(`${h.service.url}/api/v1/widget/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
    body: JSON.stringify({ amount_cents: 12_000, currency: 'USD', order_reference: 'cost', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' }),
  });

describe('a request without valid credentials runs no bcrypt', () => {
  it('none, malformed and unknown public keys: 401 and no bcrypt comparison; a known public key costs one', async () => {
    const shop = await createMerchant(h, 'Cost Shop');
    const key = await createApiKey(h, shop, 'test');
    const before = await bcryptRuns();
    const attempts = [
      await createSession({}),
      await createSession({ authorization: 'Bearer nonsense', 'x-merchant-public-key': 'nonsense' }),
      await createSession({ authorization: `Bearer sk_test_${'x'.repeat(48)}`, 'x-merchant-public-key': unknownPublicKey() }),
      await get('/api/v1/merchant/sales', {}),
      await get('/api/v1/merchant/sales', { authorization: `Bearer ${unknownDashboardToken()}` }),
      await get(`/api/v1/widget/sessions/ws_${'x'.repeat(40)}`, { 'x-merchant-public-key': unknownPublicKey() }),
    ];
    expect(attempts.map((res) => res.status)).toEqual(Array(attempts.length).fill(401));
    expect(await bcryptRuns()).toBe(before);
    // A known public key with a wrong secret is the one refusal that compares (and it spends the client's budget).
    expect((await createSession({ authorization: `Bearer sk_test_${'x'.repeat(48)}`, 'x-merchant-public-key': key.publicKey })).status).toBe(401);
    expect(await bcryptRuns()).toBe(before + 1);
  });

  it('a login with an unknown e-mail is the one place that compares a password (against the dummy hash)', async () => {
    const before = await bcryptRuns();
    const res = await fetch(`${h.service.url}/api/v1/merchant/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ email: `${randomUUID()}@example.test`, password: 'not the password' }),
    });
    expect(res.status).toBe(401);
    expect(await bcryptRuns()).toBe(before + 1);
  });
});

describe('the failed-authentication budget per client IP', () => {
  const ip = freshIp();
  const asClient = (headers: Record<string, string>) => ({ 'x-forwarded-for': ip, ...headers });

  it(`after ${FAILURES} refused credentials, the next is refused unread (429) until the window ends; other IPs and cached tokens are not`, async () => {
    const shop = await createMerchant(h, 'Budget Shop');
    const cached = await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: asClient({ authorization: `Bearer ${shop.token}` }) });
    expect(cached.status).toBe(200);
    for (let i = 0; i < FAILURES; i += 1) {
      expect((await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: asClient({ authorization: `Bearer ${unknownDashboardToken()}` }) })).status).toBe(401);
    }
    const refused = await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: asClient({ authorization: `Bearer ${unknownDashboardToken()}` }) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // An unknown public key and a GraphQL dashboard token from the same client: refused before any lookup too.
    expect((await fetch(`${h.service.url}/api/v1/widget/sessions/ws_${'x'.repeat(40)}`, { headers: asClient({ 'x-merchant-public-key': unknownPublicKey() }) })).status).toBe(429);
    const graphql = await fetch(`${h.service.url}/graphql`, {
      method: 'POST',
      headers: asClient({ 'content-type': 'application/json', authorization: `Bearer ${unknownDashboardToken()}` }),
      body: JSON.stringify({ query: '{ bnplMerchant { id } }' }),
    });
    expect(((await graphql.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('RATE_LIMITED');
    // A token verified moments ago is answered from the cache, without spending or consulting the budget.
    expect((await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: asClient({ authorization: `Bearer ${shop.token}` }) })).status).toBe(200);
    // Another client has a budget of its own.
    expect((await get('/api/v1/merchant/sales', { authorization: `Bearer ${unknownDashboardToken()}` })).status).toBe(401);
  });

  it('requests without any credential spend nothing (they cost no lookup)', async () => {
    const client = freshIp();
    for (let i = 0; i < FAILURES + 2; i += 1) {
      expect((await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: { 'x-forwarded-for': client } })).status).toBe(401);
    }
    expect((await fetch(`${h.service.url}/api/v1/merchant/sales`, { headers: { 'x-forwarded-for': client, authorization: `Bearer ${unknownDashboardToken()}` } })).status).toBe(401);
  });
});

describe('the login limits hold however the path is spelled', () => {
  it.each([
    { name: 'login', path: '/api/v1/merchant/auth/login' },
    { name: 'code verification', path: '/api/v1/merchant/auth/otp/verify' },
  ])('$name: each other spelling answers 404 (no handler) or spends the same budget', async (route) => {
    const client = freshIp();
    const body = JSON.stringify({ email: `${randomUUID()}@example.test`, password: 'not the password', code: '000000' });
    const send = (path: string) => fetch(`${h.service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body });
    let spent = 0;
    const unguarded: string[] = [];
    for (const spelling of otherSpellings(route.path)) {
      const res = await send(spelling.path);
      await res.arrayBuffer();
      const counted = res.headers.get('ratelimit-remaining') !== null;
      if (counted) spent += 1;
      if (res.status !== 404 && !counted) unguarded.push(`${spelling.name}: ${res.status}`);
    }
    expect(unguarded).toEqual([]);
    const documented = await send(route.path);
    expect(documented.status).toBe(401);
    // The e-mail's bucket answers last, and every counted spelling carried the same e-mail.
    expect(Number(documented.headers.get('ratelimit-remaining'))).toBe(Number(documented.headers.get('ratelimit-limit')) - spent - 1);
  });
});
