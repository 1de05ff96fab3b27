// A payment link's public page as a shopper uses it, over HTTP against the real app: the page, starting a checkout
// for the link's price, the use counted when the loan is booked, sold out at max_uses (also when two shoppers race
// for the last use), and deleted links gone.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Loan } from '../src/modules/loans/index.js';
import { PAYMENT_LINK_PAGE_TEXT, PaymentLink } from '../src/modules/payment-links/index.js';
import { WidgetSession } from '../src/modules/widget-sessions/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;
let shop: TestMerchant;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  shop = await createMerchant(h, 'Bikes & <Co>');
});
afterAll(async () => {
  await h?.close();
});

interface LinkBody {
  id: string;
  slug: string;
  public_url: string;
}

async function createLink(body: Record<string, unknown>, owner: TestMerchant = shop): Promise<LinkBody> {
  const res = await fetch(`${url}/api/v1/merchant/payment-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Road bike', amount_cents: 45_000, currency: 'EUR', environment: 'test', ...body }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as LinkBody;
}

/** "Pay in installments": the page's form post; answers 303 to a checkout_url. */
async function start(link: LinkBody): Promise<Response> {
  return fetch(link.public_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
}

async function startedSession(link: LinkBody): Promise<{ checkoutUrl: string; token: string }> {
  const res = await start(link);
  expect(res.status).toBe(303);
  const checkoutUrl = res.headers.get('location')!;
  return { checkoutUrl, token: checkoutUrl.split('/').pop()! };
}

function confirm(checkoutUrl: string, planId = 'pay_in_4'): Promise<Response> {
  return fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ plan_id: planId, email: 'jo@example.com', terms: 'accepted' }).toString(),
    redirect: 'manual',
  });
}

const stored = (id: string) => h.orm.em.fork().findOneOrFail(PaymentLink, { id });

describe('payment link public page', () => {
  it('shows the title (escaped), the merchant and the price, with a button that starts a checkout; strict headers', async () => {
    const link = await createLink({ title: '<script>alert(1)</script> Bike' });
    expect(link.public_url).toBe(`${url}/l/${link.slug}`);
    const res = await fetch(link.public_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Bike');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('Bikes &amp; &lt;Co&gt;');
    expect(page).toContain('€450.00');
    expect(page).toContain(`<form method="post" action="/l/${link.slug}">`);
    expect(page).toContain('Test mode');
  });

  it('starting a checkout makes a session at the link\'s price and mode, pointing back at the link\'s pages', async () => {
    const link = await createLink({});
    const { checkoutUrl, token } = await startedSession(link);
    expect(checkoutUrl).toBe(`${url}/checkout/${token}`);
    const session = await h.orm.em.fork().findOneOrFail(WidgetSession, { token });
    expect(session).toMatchObject({
      paymentLinkId: link.id,
      amountCents: 45_000,
      currency: 'EUR',
      livemode: false,
      status: 'initialized',
      orderReference: `payment-link:${link.slug}`,
      purchaseDescription: 'Road bike',
      successUrl: `${url}/l/${link.slug}/done`,
      cancelUrl: `${url}/l/${link.slug}`,
      customerEmail: null,
    });
    expect((await stored(link.id)).usesCount).toBe(0);
  });

  it('a booked loan counts one use; at max_uses the page is sold out (410) and starts nothing more', async () => {
    const link = await createLink({ max_uses: 1 });
    const { checkoutUrl, token } = await startedSession(link);
    const booked = await confirm(checkoutUrl);
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toBe(`${url}/l/${link.slug}/done`);
    const done = await fetch(`${url}/l/${link.slug}/done`);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(PAYMENT_LINK_PAGE_TEXT.doneHeadline);

    expect((await stored(link.id)).usesCount).toBe(1);
    const session = await h.orm.em.fork().findOneOrFail(WidgetSession, { token });
    expect(await h.orm.em.fork().count(Loan, { session: session.id })).toBe(1);
    const page = await fetch(link.public_url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(PAYMENT_LINK_PAGE_TEXT.soldOut);
    const before = await h.orm.em.fork().count(WidgetSession, { paymentLinkId: link.id });
    expect((await start(link)).status).toBe(410);
    expect(await h.orm.em.fork().count(WidgetSession, { paymentLinkId: link.id })).toBe(before);
    const api = await fetch(`${url}/api/v1/merchant/payment-links/${link.id}`, { headers: { authorization: `Bearer ${shop.token}` } });
    expect(await api.json()).toMatchObject({ uses_count: 1, max_uses: 1, is_redeemable: false });
  });

  it('two shoppers racing for the last use: exactly one loan, the other is told the offer sold out', async () => {
    const link = await createLink({ max_uses: 1 });
    const first = await startedSession(link);
    const second = await startedSession(link);
    const answers = await Promise.all([confirm(first.checkoutUrl), confirm(second.checkoutUrl)]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(await refused.text()).toContain('This offer is sold out');
    expect((await stored(link.id)).usesCount).toBe(1);
    const sessions = await h.orm.em.fork().find(WidgetSession, { paymentLinkId: link.id });
    expect(await h.orm.em.fork().count(Loan, { session: { $in: sessions.map((s) => s.id) } })).toBe(1);
  });

  it('spec "No fees apply in test mode.": a test link\'s loan has no fee (total = principal), a live link\'s carries the plan\'s', async () => {
    const feeShop = await createMerchant(h, 'Fee Shop');
    const enabled = await fetch(`${url}/api/v1/merchant/plans/monthly_6`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${feeShop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ is_enabled: true }),
    });
    expect(enabled.status).toBe(200);
    const booked: Record<string, Loan> = {};
    for (const environment of ['test', 'live']) {
      const { checkoutUrl, token } = await startedSession(await createLink({ amount_cents: 45_000, environment }, feeShop));
      expect(await (await fetch(checkoutUrl)).text()).toContain(environment === 'test' ? '6 monthly payments; no fee in test mode; total €450.00' : 'fee €27.00 (6% of the amount); total €477.00');
      expect((await confirm(checkoutUrl, 'monthly_6')).status).toBe(303);
      const session = await h.orm.em.fork().findOneOrFail(WidgetSession, { token });
      booked[environment] = await h.orm.em.fork().findOneOrFail(Loan, { session: session.id }, { populate: ['installments'] });
    }
    const figures = (loan: Loan) => [loan.livemode, loan.principalCents, loan.feeCents, loan.totalCents, loan.installments.getItems().reduce((sum, i) => sum + i.amountCents, 0)];
    expect(figures(booked.test!)).toEqual([false, 45_000, 0, 45_000, 45_000]);
    expect(figures(booked.live!)).toEqual([true, 45_000, 2_700, 47_700, 47_700]);
  });

  it('a price change never affects a checkout already started', async () => {
    const link = await createLink({ amount_cents: 20_000 });
    const { checkoutUrl, token } = await startedSession(link);
    const put = await fetch(`${url}/api/v1/merchant/payment-links/${link.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount_cents: 30_000 }),
    });
    expect(put.status).toBe(200);
    expect((await confirm(checkoutUrl)).status).toBe(303);
    const session = await h.orm.em.fork().findOneOrFail(WidgetSession, { token });
    const loan = await h.orm.em.fork().findOneOrFail(Loan, { session: session.id });
    expect(loan.principalCents).toBe(20_000);
    expect((await startedSession(link)).token).not.toBe(token);
  });

  it('a deleted link answers 404 everywhere, and a checkout it started can no longer be booked', async () => {
    const link = await createLink({});
    const { checkoutUrl } = await startedSession(link);
    const deleted = await fetch(`${url}/api/v1/merchant/payment-links/${link.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${shop.token}` } });
    expect(deleted.status).toBe(204);
    expect((await fetch(link.public_url)).status).toBe(404);
    expect((await start(link)).status).toBe(404);
    expect((await fetch(`${url}/l/${link.slug}/done`)).status).toBe(404);
    const refused = await confirm(checkoutUrl);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('This offer is sold out');
  });

  it('unknown and malformed slugs are a 404 page', async () => {
    for (const path of ['/l/AAAAAAAAAAAAAAAA', '/l/nope', '/l/%3Cscript%3E']) {
      const res = await fetch(`${url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await res.text()).toContain(PAYMENT_LINK_PAGE_TEXT.notFoundHeadline);
    }
  });
});
