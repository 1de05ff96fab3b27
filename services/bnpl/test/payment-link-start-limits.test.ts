// A payment link's public "Pay in installments" (POST /l/{slug}) starts a widget session, an outbox row and a 30-minute
// expiry workflow per request, with no credentials. So it is limited (README Decisions, "Payment link starts"): per
// client IP and per link in a window, and a link may have only so many open sessions at once. A refused start answers
// 429 with Retry-After and a page that says to try again, and starts nothing. The limits hold however the path is spelled.
// TRUST_PROXY=loopback lets each request name its client IP in X-Forwarded-For, so one test plays several shoppers.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { otherSpellings } from '@tributary/kit/testing';
import { PAYMENT_LINK_PAGE_TEXT } from '../src/modules/payment-links/index.js';
import { WidgetSession } from '../src/modules/widget-sessions/index.js';
import { createMerchant, startHarness, type TestMerchant } from './helpers.js';

let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

interface LinkBody {
  id: string;
  slug: string;
  public_url: string;
}

type Harness = Awaited<ReturnType<typeof startHarness>>;

async function createLink(h: Harness, shop: TestMerchant): Promise<LinkBody> {
  const res = await fetch(`${h.service.url}/api/v1/merchant/payment-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Road bike', amount_cents: 45_000, currency: 'EUR', environment: 'test' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as LinkBody;
}

const start = (url: string, ip: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body: '', redirect: 'manual' });

const sessionsOf = (h: Harness, link: LinkBody) => h.orm.em.fork().count(WidgetSession, { paymentLinkId: link.id });

async function expectBusyPage(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await res.text()).toContain(PAYMENT_LINK_PAGE_TEXT.busyHeadline);
}

describe('starts per client IP and per link', () => {
  let h: Harness;
  let shop: TestMerchant;
  beforeAll(async () => {
    h = await startHarness({ env: { TRUST_PROXY: 'loopback', BNPL_PAYMENT_LINK_START_LIMIT_PER_IP: '2', BNPL_PAYMENT_LINK_START_LIMIT_PER_LINK: '3' } });
    shop = await createMerchant(h, 'Limits Shop');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a client gets 2 starts per window: the 3rd answers the busy page and starts no session', async () => {
    const link = await createLink(h, shop);
    const ip = freshIp();
    expect((await start(link.public_url, ip)).status).toBe(303);
    expect((await start(link.public_url, ip)).status).toBe(303);
    await expectBusyPage(await start(link.public_url, ip));
    expect(await sessionsOf(h, link)).toBe(2);
    // Another shopper is not held back by this one.
    expect((await start(link.public_url, freshIp())).status).toBe(303);
  });

  it('a link gets 3 starts per window, whoever starts them; another link is not affected', async () => {
    const link = await createLink(h, shop);
    for (let i = 0; i < 3; i += 1) expect((await start(link.public_url, freshIp())).status).toBe(303);
    await expectBusyPage(await start(link.public_url, freshIp()));
    expect(await sessionsOf(h, link)).toBe(3);
    expect((await start((await createLink(h, shop)).public_url, freshIp())).status).toBe(303);
  });

  it('every other spelling of /l/{slug} answers 404 and starts nothing', async () => {
    const link = await createLink(h, shop);
    const spellings = otherSpellings('/l/{slug}', { slug: link.slug });
    const answers: string[] = [];
    for (const spelling of spellings) {
      const res = await start(`${h.service.url}${spelling.path}`, freshIp());
      await res.arrayBuffer();
      answers.push(`${spelling.name}: ${res.status}`);
    }
    expect(answers).toEqual(spellings.map((spelling) => `${spelling.name}: 404`));
    expect(await sessionsOf(h, link)).toBe(0);
  });
});

describe("a link's open sessions", () => {
  let h: Harness;
  let shop: TestMerchant;
  beforeAll(async () => {
    h = await startHarness({ env: { TRUST_PROXY: 'loopback', BNPL_PAYMENT_LINK_MAX_OPEN_SESSIONS: '2' } });
    shop = await createMerchant(h, 'Cap Shop');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('at most 2 open at once: the next start is refused until one ends (here: its deadline passes)', async () => {
    const link = await createLink(h, shop);
    expect((await start(link.public_url, freshIp())).status).toBe(303);
    expect((await start(link.public_url, freshIp())).status).toBe(303);
    await expectBusyPage(await start(link.public_url, freshIp()));
    expect(await sessionsOf(h, link)).toBe(2);
    await h.orm.em.fork().nativeUpdate(WidgetSession, { paymentLinkId: link.id }, { expiresAt: new Date(Date.now() - 1_000) });
    expect((await start(link.public_url, freshIp())).status).toBe(303);
    expect(await sessionsOf(h, link)).toBe(3);
  });
});
