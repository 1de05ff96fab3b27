import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MerchantPlan, NO_PLAN_ENABLED_MESSAGE } from '../src/modules/plans/index.js';
import { PaymentLink } from '../src/modules/payment-links/index.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;
let shop: TestMerchant;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  shop = await createMerchant(h, 'Link Shop');
});
afterAll(async () => {
  await h?.close();
});

const LINKS = '/api/v1/merchant/payment-links';
const LINK_FIELDS = ['amount_cents', 'created_at', 'currency', 'environment', 'id', 'is_redeemable', 'livemode', 'max_uses', 'public_url', 'slug', 'title', 'updated_at', 'uses_count'];

// Response bodies are read loosely: each test asserts the exact shape it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes, asserted field by field below
type Json = Record<string, any>;

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: Json | null }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : null };
}

const create = (body: unknown, token = shop.token) => call('POST', LINKS, token, body);

describe('payment links (spec "Payment link", DT)', () => {
  it('creates a link: 201 with the spec fields and the further ones a merchant needs', async () => {
    const res = await create({ title: 'Road bike', amount_cents: 45_000, currency: 'EUR', max_uses: 3 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body!).sort()).toEqual(LINK_FIELDS);
    expect(res.body).toMatchObject({ title: 'Road bike', amount_cents: 45_000, currency: 'EUR', max_uses: 3, is_redeemable: true, uses_count: 0, environment: 'live', livemode: true });
    expect(res.body!.slug).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(res.body!.public_url).toBe(`${url}/l/${res.body!.slug}`);
  });

  it('max_uses may be left out (unlimited) and environment chosen', async () => {
    const res = await create({ title: 'Gift card', amount_cents: 5_000, currency: 'USD', environment: 'test' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ max_uses: null, environment: 'test', livemode: false, is_redeemable: true });
  });

  it('refuses invalid bodies with 422 naming every field, and stores nothing', async () => {
    const before = await h.orm.em.fork().count(PaymentLink, {});
    const res = await create({ title: '', amount_cents: 12.5, currency: 'JPY', max_uses: 0, environment: 'prod' });
    expect(res.status).toBe(422);
    expect(res.body!.error.code).toBe('validation_failed');
    expect(Object.keys(res.body!.error.fields).sort()).toEqual(['amount_cents', 'currency', 'environment', 'max_uses', 'title']);
    expect((await create({})).body!.error.fields).toEqual(expect.objectContaining({ title: expect.any(Array), amount_cents: expect.any(Array), currency: expect.any(Array) }));
    expect((await create([1, 2])).body!.error.fields).toEqual({ body: ['Must be a JSON object.'] });
    expect((await create({ title: 'a\u0000b', amount_cents: 5_000, currency: 'USD' })).body!.error.fields.title).toEqual(['Must not contain NUL characters or unpaired surrogates.']);
    expect(await h.orm.em.fork().count(PaymentLink, {})).toBe(before);
  });

  it('refuses a price no enabled plan covers', async () => {
    const low = await create({ title: 'Socks', amount_cents: 4_999, currency: 'USD' });
    expect(low.status).toBe(422);
    expect(low.body!.error.fields.amount_cents).toEqual(["Must be within the limits of the merchant's enabled installment plans: 5000 to 100000 (minor units)."]);
    const other = await createMerchant(h, 'No Plans Shop');
    const em = h.orm.em.fork();
    em.create(MerchantPlan, { merchant: other.merchant.id, planId: 'pay_in_4', isEnabled: false });
    await em.flush();
    const none = await create({ title: 'Anything', amount_cents: 10_000, currency: 'USD' }, other.token);
    expect(none.body!.error.fields.amount_cents).toEqual([NO_PLAN_ENABLED_MESSAGE]);
  });

  it('lists the merchant\'s own links newest first in {"data": [...]}, and hides them from other merchants', async () => {
    const mine = await createMerchant(h, 'List Shop');
    const a = await create({ title: 'A', amount_cents: 6_000, currency: 'GBP' }, mine.token);
    const b = await create({ title: 'B', amount_cents: 7_000, currency: 'GBP' }, mine.token);
    const list = await call('GET', LINKS, mine.token);
    expect(list.status).toBe(200);
    expect(list.body!.data.map((l: { id: string }) => l.id)).toEqual([b.body!.id, a.body!.id]);
    const theirs = await call('GET', LINKS, shop.token);
    expect(theirs.body!.data.map((l: { id: string }) => l.id)).not.toContain(a.body!.id);
    expect((await call('GET', `${LINKS}/${a.body!.id}`, mine.token)).body).toEqual(a.body);
    expect((await call('GET', `${LINKS}/${a.body!.id}`, shop.token)).status).toBe(404);
    expect((await call('GET', `${LINKS}/not-a-uuid`, mine.token)).status).toBe(404);
  });

  it('PUT changes only the fields given; max_uses cannot go below the uses counted; null removes the limit', async () => {
    const link = (await create({ title: 'Lamp', amount_cents: 8_000, currency: 'USD', max_uses: 5 })).body!;
    const updated = await call('PUT', `${LINKS}/${link.id}`, shop.token, { title: 'Desk lamp', amount_cents: 9_000 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: link.id, slug: link.slug, title: 'Desk lamp', amount_cents: 9_000, currency: 'USD', max_uses: 5 });

    await h.orm.em.fork().nativeUpdate(PaymentLink, { id: link.id }, { usesCount: 2 });
    const tooLow = await call('PUT', `${LINKS}/${link.id}`, shop.token, { max_uses: 1, title: 'ignored' });
    expect(tooLow.status).toBe(422);
    expect(tooLow.body!.error.fields).toEqual({ max_uses: ['Must be at least the number of uses already counted (2).'] });
    expect((await call('GET', `${LINKS}/${link.id}`, shop.token)).body!.title).toBe('Desk lamp');

    const exhausted = await call('PUT', `${LINKS}/${link.id}`, shop.token, { max_uses: 2 });
    expect(exhausted.body).toMatchObject({ max_uses: 2, uses_count: 2, is_redeemable: false });
    const unlimited = await call('PUT', `${LINKS}/${link.id}`, shop.token, { max_uses: null });
    expect(unlimited.body).toMatchObject({ max_uses: null, is_redeemable: true });
    expect((await call('PUT', `${LINKS}/${link.id}`, shop.token, { currency: 'XXX' })).status).toBe(422);
    expect((await call('PUT', `${LINKS}/${link.id}`, (await createMerchant(h, 'Intruder')).token, { title: 'Mine now' })).status).toBe(404);
  });

  it('DELETE answers 204 and the link is gone (404, not listed); a second DELETE is 404', async () => {
    const link = (await create({ title: 'Chair', amount_cents: 12_000, currency: 'USD' })).body!;
    const deleted = await call('DELETE', `${LINKS}/${link.id}`, shop.token);
    expect(deleted).toEqual({ status: 204, body: null });
    expect((await call('GET', `${LINKS}/${link.id}`, shop.token)).status).toBe(404);
    expect((await call('GET', LINKS, shop.token)).body!.data.map((l: { id: string }) => l.id)).not.toContain(link.id);
    expect((await call('DELETE', `${LINKS}/${link.id}`, shop.token)).status).toBe(404);
    expect(await h.orm.em.fork().count(PaymentLink, { id: link.id, deletedAt: { $ne: null } })).toBe(1);
  });

  it('every route answers 401 without a dashboard token', async () => {
    const link = (await create({ title: 'Mug', amount_cents: 5_500, currency: 'USD' })).body!;
    for (const [method, path] of [['GET', LINKS], ['POST', LINKS], ['GET', `${LINKS}/${link.id}`], ['PUT', `${LINKS}/${link.id}`], ['DELETE', `${LINKS}/${link.id}`]] as const) {
      expect({ method, path, ...(await call(method, path, null, method === 'POST' || method === 'PUT' ? {} : undefined)) }).toEqual({
        method,
        path,
        status: 401,
        body: { error: { code: 'unauthenticated', message: 'Authentication is required.' } },
      });
    }
  });
});

describe('payment links (GraphQL)', () => {
  it('creates, updates, lists and deletes through the same rules', async () => {
    const owner = await createMerchant(h, 'Graph Shop');
    const auth = { authorization: `Bearer ${owner.token}` };
    const created = await gql(url, 'mutation($i: BnplPaymentLinkInput!) { createBnplPaymentLink(input: $i) { id title amountCents currency maxUses publicUrl isRedeemable usesCount environment } }', auth, {
      i: { title: 'Kayak', amountCents: 80_000, currency: 'USD', maxUses: 1 },
    });
    expect(created.body.errors).toBeUndefined();
    const link = created.body.data!.createBnplPaymentLink as { id: string; publicUrl: string };
    expect(link).toMatchObject({ title: 'Kayak', amountCents: 80_000, maxUses: 1, isRedeemable: true, usesCount: 0, environment: 'live' });
    expect(link.publicUrl).toMatch(/\/l\/[A-Za-z0-9]{16}$/);

    const invalid = await gql(url, 'mutation($i: BnplPaymentLinkInput!) { createBnplPaymentLink(input: $i) { id } }', auth, { i: { title: 'Too cheap', amountCents: 1, currency: 'USD' } });
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const updated = await gql(url, 'mutation($id: ID!) { updateBnplPaymentLink(id: $id, input: { title: "Sea kayak", maxUses: null }) { title maxUses } }', auth, { id: link.id });
    expect(updated.body.data!.updateBnplPaymentLink).toEqual({ title: 'Sea kayak', maxUses: null });
    const listed = await gql(url, '{ bnplMerchant { paymentLinks { id title } } }', auth);
    expect(listed.body.data!.bnplMerchant).toEqual({ paymentLinks: [{ id: link.id, title: 'Sea kayak' }] });
    const deleted = await gql(url, 'mutation($id: ID!) { deleteBnplPaymentLink(id: $id) }', auth, { id: link.id });
    expect(deleted.body.data!.deleteBnplPaymentLink).toBe(link.id);
    expect((await gql(url, '{ bnplMerchant { paymentLinks { id } } }', auth)).body.data!.bnplMerchant).toEqual({ paymentLinks: [] });
  });
});

describe('payment links need the dashboard token', () => {
  it('an API key pair gets FORBIDDEN in GraphQL', async () => {
    const { DEMO_PUBLIC_KEY, DEMO_SECRET_KEY, seedDemoData } = await import('../src/seed.js');
    await seedDemoData(h.orm.em.fork());
    const keys = { authorization: `Bearer ${DEMO_SECRET_KEY}`, 'x-merchant-public-key': DEMO_PUBLIC_KEY };
    const created = await gql(url, 'mutation { createBnplPaymentLink(input: { title: "x", amountCents: 6000, currency: "USD" }) { id } }', keys);
    expect(created.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(created.body.errors?.[0]?.message).toBe('Payment links are managed with a dashboard token.');
    const listed = await gql(url, '{ bnplMerchant { paymentLinks { id } } }', keys);
    expect(listed.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
