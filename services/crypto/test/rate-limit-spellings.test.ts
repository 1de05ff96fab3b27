// The spec's limits hold however a request is spelled: every other spelling of a limited path (letter case, a trailing
// slash, a percent-encoded letter, a repeated slash) answers 404 without reaching a handler, or counts against the same
// budget as the documented spelling; HEAD counts like the GET it is. So no spelling buys a fresh budget.
// TRUST_PROXY=loopback lets each test name its client IP in X-Forwarded-For (a fresh budget per test).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { otherSpellings } from '@tributary/kit/testing';
import { seedDemoData } from '../src/seed.js';
import { createMerchant, startHarness, type Harness } from './helpers.js';

const LIMIT = 12;
let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

interface LimitedRoute {
  name: string;
  method: 'GET' | 'POST';
  /** OpenAPI notation; {slug} is a real payment request's, so a spelling that reached its handler would answer 200. */
  path: string;
  /** Headers of a request the route answers (a key, a GraphQL content type), minus the client IP. */
  headers?: (key: string) => Record<string, string>;
  body?: string;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const routes: LimitedRoute[] = [
  { name: 'merchant API, per key', method: 'GET', path: '/api/merchant/v1/account', headers: bearer },
  { name: 'merchant API without a valid key, per IP', method: 'GET', path: '/api/merchant/v1/account' },
  { name: 'subgraph, per key', method: 'POST', path: '/graphql', headers: (key) => ({ ...bearer(key), 'content-type': 'application/json' }), body: '{"query":"{ __typename }"}' },
  { name: 'public payer endpoint, per IP', method: 'GET', path: '/api/pay/{slug}' },
  { name: 'hosted page, per IP', method: 'GET', path: '/pay/{slug}' },
];

describe('limits hold however the path is spelled', () => {
  let h: Harness;
  let slug: string;
  beforeAll(async () => {
    h = await startHarness({ env: { TRUST_PROXY: 'loopback', CRYPTO_MERCHANT_RATE_LIMIT: String(LIMIT), CRYPTO_PUBLIC_RATE_LIMIT: String(LIMIT) } });
    await seedDemoData(h.orm.em.fork());
    const { key } = await createMerchant(h, `slug owner ${randomUUID()}`);
    const created = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ asset_id: 1, title: 'Spelling', amount: '0.5' }),
    });
    expect(created.status).toBe(201);
    slug = ((await created.json()) as { payment_request: { id: string } }).payment_request.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const send = (route: LimitedRoute, path: string, ip: string, key: string, method: string = route.method) =>
    fetch(`${h.service.url}${path}`, { method, headers: { accept: 'application/json', 'x-forwarded-for': ip, ...route.headers?.(key) }, body: route.body });

  it.each(routes)('$name: each other spelling answers 404 or spends the same budget; HEAD spends it like GET', async (route) => {
    const ip = freshIp();
    const { key } = await createMerchant(h, `spelling ${randomUUID()}`);
    const documentedPath = route.path.replace('{slug}', slug);
    let spent = 0;
    const answers: string[] = [];
    for (const spelling of otherSpellings(route.path, { slug })) {
      const res = await send(route, spelling.path, ip, key);
      await res.arrayBuffer();
      const counted = res.headers.get('ratelimit-remaining') !== null;
      if (counted) spent += 1;
      if (res.status !== 404 && !counted) answers.push(`${spelling.name}: ${res.status} without a budget`);
    }
    if (route.method === 'GET') {
      const head = await send(route, documentedPath, ip, key, 'HEAD');
      expect(head.headers.get('ratelimit-remaining')).toBe(String(LIMIT - spent - 1));
      spent += 1;
    }
    expect(answers).toEqual([]);
    const documented = await send(route, documentedPath, ip, key);
    await documented.arrayBuffer();
    expect(documented.headers.get('ratelimit-remaining')).toBe(String(LIMIT - spent - 1));
  });
});
