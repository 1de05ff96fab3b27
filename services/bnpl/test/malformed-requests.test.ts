// Input the HTTP layer refuses before any bnpl code runs (kit: createServiceApp, startHttpServer), in the kit's
// envelope, never a 500; and the header bnpl passes to its database as is (X-Merchant-Public-Key).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MALFORMED_HTTP_MESSAGE, MALFORMED_TEXT_MESSAGE, MALFORMED_URL_MESSAGE } from '@tributary/kit';
import { exchangeRawHttp, rawHttpRequest } from '@tributary/kit/testing';
import { DEMO_DASHBOARD_TOKEN, DEMO_SECRET_KEY, seedDemoData } from '../src/seed.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

const bearer = { authorization: `Bearer ${DEMO_DASHBOARD_TOKEN}` };

it('a revoke id that is not UTF-8 answers 400 malformed_request', async () => {
  const res = await fetch(`${h.service.url}/api/v1/merchant/api-keys/%F4%82`, { method: 'DELETE', headers: bearer });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: { code: 'malformed_request', message: MALFORMED_URL_MESSAGE } });
});

describe('X-Merchant-Public-Key', () => {
  const query = '{"query":"{ bnplMerchant { id } }"}';
  const graphqlWithPublicKey = (...publicKey: Array<string | number[]>) =>
    rawHttpRequest(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${query.length}\r\nAuthorization: Bearer ${DEMO_SECRET_KEY}\r\nX-Merchant-Public-Key: `,
      ...publicKey,
      `\r\n\r\n${query}`,
    );

  it('bytes 0x80-0xFF (allowed by HTTP) reach the key lookup as text and read as unknown: UNAUTHENTICATED, not a 500', async () => {
    const response = await exchangeRawHttp(h.service.url, graphqlWithPublicKey('pk_test_', [0xff, 0xfe, 0xc3, 0x28]));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('a NUL is refused by the HTTP layer with 400 in the envelope', async () => {
    const response = await exchangeRawHttp(h.service.url, graphqlWithPublicKey('pk_test_', [0], 'x'));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'malformed_request', message: MALFORMED_HTTP_MESSAGE } });
  });
});

it('an API key name holding NUL or an unpaired surrogate is a 422 on name, not a database error', async () => {
  for (const name of ['a\u0000b', 'x\ud800']) {
    const res = await fetch(`${h.service.url}/api/v1/merchant/api-keys`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name, environment: 'test' }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: { code: 'validation_failed', message: 'The request is invalid.', fields: { name: [MALFORMED_TEXT_MESSAGE] } } });
  }
});

it('PUT on the API key collection answers 405 method_not_allowed with Allow', async () => {
  const res = await fetch(`${h.service.url}/api/v1/merchant/api-keys`, { method: 'PUT', headers: { ...bearer, 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  expect(await res.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
});
