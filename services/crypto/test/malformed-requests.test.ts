// Input the HTTP layer refuses before any crypto code runs (kit: createServiceApp, startHttpServer), in crypto's
// `{"message"}` shape, never a 500: the URLs an outside fuzzer found, header bytes HTTP forbids, and methods a path
// does not serve.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MALFORMED_HTTP_MESSAGE, MALFORMED_URL_MESSAGE } from '@tributary/kit';
import { exchangeRawHttp, rawHttpRequest } from '@tributary/kit/testing';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let merchant: TestMerchant;

beforeAll(async () => {
  h = await startHarness();
  merchant = await createMerchant(h, 'Malformed Requests Ltd');
});
afterAll(async () => {
  await h?.close();
});

const get = (path: string, key?: string) => fetch(`${h.service.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

describe('malformed URLs answer 400 {"message"}, with or without credentials', () => {
  it.each([
    ['a NUL in the reference filter', '/api/merchant/v1/payment-requests?reference=%00abc'],
    ['an invalid UTF-8 sequence as the id', '/api/merchant/v1/payment-requests/%F4%82'],
    ['an invalid UTF-8 sequence as the payer slug', '/api/pay/%F4%82'],
    ['a NUL on the hosted page', '/pay/abc%00'],
  ])('%s', async (_case, path) => {
    for (const key of [merchant.key, undefined]) {
      const res = await get(path, key);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: MALFORMED_URL_MESSAGE });
    }
  });

  it('a well-formed reference with multi-byte characters is a normal filter', async () => {
    const res = await get('/api/merchant/v1/payment-requests?reference=%E2%82%AC-1', merchant.key);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [], total: 0 });
  });
});

describe('headers', () => {
  it('a NUL in Authorization answers 400 {"message"} from the HTTP layer', async () => {
    const response = await exchangeRawHttp(
      h.service.url,
      rawHttpRequest('GET /api/merchant/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ', merchant.key.slice(0, 8), [0], merchant.key.slice(8), '\r\n\r\n'),
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: MALFORMED_HTTP_MESSAGE });
  });

  it('bytes 0x80-0xFF, which HTTP allows in a value, reach the service as text: 401 and 422, never a 500', async () => {
    const account = await exchangeRawHttp(h.service.url, rawHttpRequest('GET /api/merchant/v1/account HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ', [0xff, 0xc3, 0x80], '.x\r\n\r\n'));
    expect(account.status).toBe(401);
    const body = '{"asset_id":1,"title":"t","amount":"0.1"}';
    const create = await exchangeRawHttp(
      h.service.url,
      rawHttpRequest(
        `POST /api/merchant/v1/payment-requests HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${merchant.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: order-`,
        [0xe9, 0x80],
        `\r\n\r\n${body}`,
      ),
    );
    expect(create.status).toBe(422);
    expect(JSON.parse(create.body)).toMatchObject({ errors: { 'Idempotency-Key': expect.any(Array) } });
  });
});

describe('405 Method Not Allowed', () => {
  it('a served path with another method answers 405 with Allow and {"message"}', async () => {
    const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, { method: 'DELETE', headers: { authorization: `Bearer ${merchant.key}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await res.json()).toEqual({ message: 'This method is not allowed on this path; the Allow header lists the methods that are.' });
    const cancel = await fetch(`${h.service.url}/api/merchant/v1/payment-requests/1/cancel`, { method: 'GET', headers: { authorization: `Bearer ${merchant.key}` } });
    expect(cancel.status).toBe(405);
    expect(cancel.headers.get('allow')).toBe('POST');
  });

  it('/graphql answers other methods itself: 405 with Allow GET, POST (GraphQL error body, as documented for /graphql)', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${h.service.url}/graphql`, { method, headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST');
      expect(await res.json()).toMatchObject({ errors: [{ message: expect.any(String) }] });
    }
  });
});
