// A payment request's slug is the capability of its payer view (spec): the real service's access log keeps only its
// first four characters, on the public endpoint, the hosted page and its QR code (capabilities.ts, kit
// http/capabilities.ts). The merchant routes name a request by its internal id.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { capturingLogger, waitFor } from '@tributary/kit/testing';
import { MERCHANT_API_PREFIX, PUBLIC_API_PREFIX } from '../src/api-paths.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

const logs = capturingLogger('info', 'crypto');
const REQUESTS = `${MERCHANT_API_PREFIX}/payment-requests`;
let h: Harness;
let merchant: TestMerchant;

beforeAll(async () => {
  h = await startHarness({ logger: logs.logger });
  merchant = await createMerchant(h, 'Capability Logs');
});
afterAll(async () => {
  await h?.close();
});

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  fetch(`${h.service.url}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const accessUrls = () => logs.lines().filter((line) => typeof line.req === 'object').map((line) => (line.req as { url: string }).url);

describe('payment request slugs in the access log', () => {
  it('are logged as their first four characters, never whole', async () => {
    const auth = { authorization: `Bearer ${merchant.key}`, accept: 'application/json' };
    const created = await send('POST', REQUESTS, auth, { asset_id: 1, title: 'Logs', amount: '0.5' });
    expect(created.status).toBe(201);
    const slug = ((await created.json()) as { payment_request: { id: string } }).payment_request.id;
    const id = /\/(\d+)$/.exec(created.headers.get('location') ?? '')?.[1];
    const short = `${slug.slice(0, 4)}…`;

    expect((await send('GET', `${PUBLIC_API_PREFIX}/${slug}`)).status).toBe(200);
    expect((await send('GET', `/pay/${slug}`, { accept: 'text/html' })).status).toBe(200);
    expect((await send('GET', `/pay/${slug}/qr.svg`)).status).toBe(200);
    expect((await send('POST', `${REQUESTS}/${id}/cancel`, auth)).status).toBe(200);
    expect((await send('GET', `${PUBLIC_API_PREFIX}/${slug}`)).status).toBe(404);

    const expected = [
      REQUESTS,
      `${PUBLIC_API_PREFIX}/${short}`,
      `/pay/${short}`,
      `/pay/${short}/qr.svg`,
      `${REQUESTS}/${id}/cancel`,
      `${PUBLIC_API_PREFIX}/${short}`,
    ];
    expect(await waitFor(async () => accessUrls(), (urls) => urls.length >= expected.length, 5_000)).toEqual(expected);
    expect(logs.text()).not.toContain(slug);
  });
});
