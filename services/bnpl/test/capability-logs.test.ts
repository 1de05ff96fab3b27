// The widget session token is a capability (it opens the shopper's checkout): the real service's access log keeps
// only `ws_` and its next four characters, on the API routes that name a session, on the checkout page and on a
// refusal (capabilities.ts, kit http/capabilities.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { capturingLogger, waitFor } from '@tributary/kit/testing';
import { WIDGET_SESSIONS_PATH } from '../src/api-paths.js';
import { createApiKey, createMerchant, startHarness, type Harness, type TestApiKey } from './helpers.js';

const logs = capturingLogger('info', 'bnpl');
let h: Harness;
let key: TestApiKey;

beforeAll(async () => {
  h = await startHarness({ logger: logs.logger });
  key = await createApiKey(h, await createMerchant(h, 'Capability Logs'), 'test');
});
afterAll(async () => {
  await h?.close();
});

const cart = { amount_cents: 12_000, currency: 'USD', order_reference: 'caps-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' };
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  fetch(`${h.service.url}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const accessUrls = () => logs.lines().filter((line) => typeof line.req === 'object').map((line) => (line.req as { url: string }).url);

describe('widget session tokens in the access log', () => {
  it('are logged as ws_ and four characters, never whole', async () => {
    const created = await send('POST', WIDGET_SESSIONS_PATH, key.keys, cart);
    expect(created.status).toBe(201);
    const token = ((await created.json()) as { session_token: string }).session_token;
    const short = `${token.slice(0, 7)}…`;

    expect((await send('GET', `${WIDGET_SESSIONS_PATH}/${token}`, key.pk)).status).toBe(200);
    expect((await send('GET', `${WIDGET_SESSIONS_PATH}/${token}`)).status).toBe(401);
    expect((await send('GET', `/checkout/${token}`)).status).toBe(200);
    expect((await send('GET', `/checkout/${token}/?embed=modal`)).status).toBe(200);
    expect((await send('POST', `${WIDGET_SESSIONS_PATH}/${token}/cancel`, key.pk)).status).toBe(200);

    const expected = [
      WIDGET_SESSIONS_PATH,
      `${WIDGET_SESSIONS_PATH}/${short}`,
      `${WIDGET_SESSIONS_PATH}/${short}`,
      `/checkout/${short}`,
      `/checkout/${short}/?embed=modal`,
      `${WIDGET_SESSIONS_PATH}/${short}/cancel`,
    ];
    expect(await waitFor(async () => accessUrls(), (urls) => urls.length >= expected.length, 5_000)).toEqual(expected);
    expect(logs.text()).not.toContain(token);
    expect(logs.text()).not.toContain(token.slice(3));
  });
});
