// Installment plans over real HTTP and GraphQL against the real service and database: the merchant's switches
// (GET/PUT /api/v1/merchant/plans), their storage under concurrency, and their effect on the widget session create range.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ENABLED_PLANS_TTL_MS, EnabledPlansCache, MerchantPlan, MerchantPlanRepository, PLAN_CATALOGUE, anyPlanCovers, coveredRanges, planById, type InstallmentPlan } from '../src/modules/plans/index.js';
import { SESSION_CREATE_MESSAGES } from '../src/modules/widget-sessions/index.js';
import { createApiKey, createMerchant, gql, startHarness, type Harness, type TestApiKey, type TestMerchant } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const cart = { currency: 'USD', order_reference: 'o-1', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cart' };
const dt = (m: TestMerchant) => ({ authorization: `Bearer ${m.token}` });

async function put(m: TestMerchant, planId: string, body: unknown) {
  const res = await fetch(`${h.service.url}/api/v1/merchant/plans/${planId}`, { method: 'PUT', headers: { ...dt(m), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function configured(m: TestMerchant): Promise<Record<string, boolean>> {
  const res = await fetch(`${h.service.url}/api/v1/merchant/plans`, { headers: dt(m) });
  const body = (await res.json()) as { configured: Array<{ plan: string; is_enabled: boolean }> };
  return Object.fromEntries(body.configured.map((c) => [c.plan, c.is_enabled]));
}

async function createStatus(key: TestApiKey, amount_cents: number) {
  const res = await fetch(`${h.service.url}/api/v1/widget/sessions`, { method: 'POST', headers: { ...key.keys, 'content-type': 'application/json' }, body: JSON.stringify({ ...cart, amount_cents }) });
  const body = (await res.json()) as { error?: { fields?: Record<string, string[]> } };
  return { status: res.status, amount: body.error?.fields?.amount_cents };
}

async function shop(name: string) {
  const merchant = await createMerchant(h, name);
  return { merchant, key: await createApiKey(h, merchant, 'test') };
}

describe('switches', () => {
  it('a new merchant has Pay in 4 on and the monthly plans off (catalogue defaults, no rows stored)', async () => {
    const { merchant } = await shop('Fresh');
    expect(await configured(merchant)).toEqual({ pay_in_4: true, monthly_3: false, monthly_6: false, monthly_12: false });
    expect(await h.orm.em.fork().count(MerchantPlan, { merchant: merchant.merchant.id })).toBe(0);
  });

  it('PUT stores one row per plan, overwrites it on the next PUT, repeats harmlessly, and touches no other merchant', async () => {
    const { merchant } = await shop('Switcher');
    const { merchant: other } = await shop('Bystander');
    expect(await put(merchant, 'pay_in_4', { is_enabled: false })).toEqual({ status: 200, body: { plan: 'pay_in_4', is_enabled: false } });
    expect(await put(merchant, 'pay_in_4', { is_enabled: false })).toEqual({ status: 200, body: { plan: 'pay_in_4', is_enabled: false } });
    expect(await put(merchant, 'monthly_12', { is_enabled: true, note: 'ignored' })).toEqual({ status: 200, body: { plan: 'monthly_12', is_enabled: true } });
    expect(await configured(merchant)).toEqual({ pay_in_4: false, monthly_3: false, monthly_6: false, monthly_12: true });
    expect(await put(merchant, 'pay_in_4', { is_enabled: true })).toEqual({ status: 200, body: { plan: 'pay_in_4', is_enabled: true } });
    expect(await h.orm.em.fork().count(MerchantPlan, { merchant: merchant.merchant.id })).toBe(2);
    expect(await configured(other)).toEqual({ pay_in_4: true, monthly_3: false, monthly_6: false, monthly_12: false });
  });

  it('concurrent PUTs of one plan never collide: one row, holding one of the sent values', async () => {
    const { merchant } = await shop('Racer');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => put(merchant, 'monthly_3', { is_enabled: i % 2 === 0 })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const rows = await h.orm.em.fork().find(MerchantPlan, { merchant: merchant.merchant.id });
    expect(rows.map((r) => r.planId)).toEqual(['monthly_3']);
  });

  it('an unknown plan is 404; a bad body is 422 on is_enabled (or on body); nothing stored', async () => {
    const { merchant } = await shop('Sloppy');
    for (const planId of ['pay_in_5', 'PAY_IN_4', '%20']) expect((await put(merchant, planId, { is_enabled: true })).status).toBe(404);
    const refusals: Array<[unknown, Record<string, string[]>]> = [
      [{}, { is_enabled: ['Must be true or false.'] }],
      [{ is_enabled: null }, { is_enabled: ['Must be true or false.'] }],
      [{ is_enabled: 'true' }, { is_enabled: ['Must be true or false.'] }],
      [{ is_enabled: 1 }, { is_enabled: ['Must be true or false.'] }],
      [[{ is_enabled: true }], { body: ['The request body must be a JSON object.'] }],
    ];
    for (const [body, fields] of refusals) {
      expect(await put(merchant, 'monthly_3', body)).toEqual({ status: 422, body: { error: { code: 'validation_failed', message: 'The request is invalid.', fields } } });
    }
    expect(await h.orm.em.fork().count(MerchantPlan, { merchant: merchant.merchant.id })).toBe(0);
  });
});

describe('effect on the widget session create range', () => {
  it('the accepted amounts are the union of the enabled plans’ limits, and follow every switch', async () => {
    const { merchant, key } = await shop('Ranges');
    // Pay in 4 alone: 5000..100000.
    expect(await createStatus(key, 5_000)).toEqual({ status: 201, amount: undefined });
    expect((await createStatus(key, 100_001)).status).toBe(422);

    // + 12 monthly payments (50000..1000000): one merged range 5000..1000000.
    await put(merchant, 'monthly_12', { is_enabled: true });
    expect((await createStatus(key, 1_000_000)).status).toBe(201);
    expect(await createStatus(key, 1_000_001)).toEqual({ status: 422, amount: ["Must be within the limits of the merchant's enabled installment plans: 5000 to 1000000 (minor units)."] });

    // 12 monthly payments alone: 50000..1000000.
    await put(merchant, 'pay_in_4', { is_enabled: false });
    expect(await createStatus(key, 49_999)).toEqual({ status: 422, amount: ["Must be within the limits of the merchant's enabled installment plans: 50000 to 1000000 (minor units)."] });
    expect((await createStatus(key, 50_000)).status).toBe(201);

    // Nothing enabled: every amount refused, saying why.
    await put(merchant, 'monthly_12', { is_enabled: false });
    expect(await createStatus(key, 50_000)).toEqual({ status: 422, amount: [SESSION_CREATE_MESSAGES.noPlanEnabled] });
  });
});

describe("the create's enabled-plans cache", () => {
  const ids = (plans: readonly InstallmentPlan[]) => plans.map((plan) => plan.id);

  it('sees a switch made by another instance once its entry is older than the TTL (5 s), not before', async () => {
    expect(ENABLED_PLANS_TTL_MS).toBeLessThanOrEqual(5_000);
    const { merchant } = await shop('Other Instance');
    let now = 1_000;
    const cache = new EnabledPlansCache(h.orm.em.fork(), { now: () => now });
    expect(ids(await cache.enabledFor(merchant.merchant.id))).toEqual(['pay_in_4']);
    // Another process switches Pay in 4 off (no PlanService here to clear the entry).
    await h.orm.em.fork().getRepository(MerchantPlan).setEnabled(merchant.merchant.id, 'pay_in_4', false);
    now += ENABLED_PLANS_TTL_MS;
    expect(ids(await cache.enabledFor(merchant.merchant.id))).toEqual(['pay_in_4']);
    now += 1;
    expect(ids(await cache.enabledFor(merchant.merchant.id))).toEqual([]);
  });

  it('shares one database read among concurrent misses for a merchant, and reads each merchant on its own', async () => {
    const a = await shop('Burst A');
    const b = await shop('Burst B');
    const cache = new EnabledPlansCache(h.orm.em.fork());
    const reads = jest.spyOn(MerchantPlanRepository.prototype, 'enabledFor');
    try {
      const burst = await Promise.all([...Array.from({ length: 10 }, () => cache.enabledFor(a.merchant.merchant.id)), cache.enabledFor(b.merchant.merchant.id)]);
      expect(burst.map(ids)).toEqual(Array(11).fill(['pay_in_4']));
      expect(reads.mock.calls.map(([merchantId]) => merchantId).sort()).toEqual([a.merchant.merchant.id, b.merchant.merchant.id].sort());
    } finally {
      reads.mockRestore();
    }
  });
});

describe('GraphQL', () => {
  const plansQuery = `{ bnplMerchant { plans { configured { plan isEnabled } available { plan name installmentCount interval intervalCount firstDue feeBps minAmountCents maxAmountCents enabledByDefault } } } }`;
  const setPlan = `mutation($planId: String!, $isEnabled: Boolean!) { setBnplPlanEnabled(planId: $planId, isEnabled: $isEnabled) { plan isEnabled } }`;

  it('BnplMerchant.plans shows the switches and the catalogue, with either credential', async () => {
    const { merchant, key } = await shop('GraphQL Plans');
    for (const headers of [dt(merchant), key.keys]) {
      const { body } = await gql(h.service.url, plansQuery, headers);
      expect(body.errors).toBeUndefined();
      const plans = (body.data?.bnplMerchant as { plans: { configured: unknown[]; available: Array<Record<string, unknown>> } }).plans;
      expect(plans.configured).toEqual([
        { plan: 'pay_in_4', isEnabled: true },
        { plan: 'monthly_3', isEnabled: false },
        { plan: 'monthly_6', isEnabled: false },
        { plan: 'monthly_12', isEnabled: false },
      ]);
      expect(plans.available[0]).toEqual({ plan: 'pay_in_4', name: 'Pay in 4', installmentCount: 4, interval: 'DAY', intervalCount: 14, firstDue: 'AT_CHECKOUT', feeBps: 0, minAmountCents: 5_000, maxAmountCents: 100_000, enabledByDefault: true });
      expect(plans.available[3]).toMatchObject({ plan: 'monthly_12', interval: 'MONTH', intervalCount: 1, firstDue: 'AFTER_ONE_INTERVAL', feeBps: 1_200 });
    }
  });

  it('setBnplPlanEnabled switches a plan with a dashboard token, as REST does', async () => {
    const { merchant } = await shop('GraphQL Switch');
    const { body } = await gql(h.service.url, setPlan, dt(merchant), { planId: 'monthly_6', isEnabled: true });
    expect(body).toEqual({ data: { setBnplPlanEnabled: { plan: 'monthly_6', isEnabled: true } } });
    expect((await configured(merchant)).monthly_6).toBe(true);
  });

  it('refuses an API key pair (FORBIDDEN), an unknown plan (NOT_FOUND) and no credential (UNAUTHENTICATED), changing nothing', async () => {
    const { merchant, key } = await shop('GraphQL Refusals');
    const forbidden = await gql(h.service.url, setPlan, key.keys, { planId: 'monthly_6', isEnabled: true });
    expect(forbidden.body.errors?.[0]).toMatchObject({ message: 'Managing installment plans requires a dashboard token.', extensions: { code: 'FORBIDDEN' } });
    expect((await gql(h.service.url, setPlan, dt(merchant), { planId: 'weekly_2', isEnabled: true })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gql(h.service.url, setPlan, {}, { planId: 'monthly_6', isEnabled: true })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await h.orm.em.fork().count(MerchantPlan, { merchant: merchant.merchant.id })).toBe(0);
  });
});

describe('coveredRanges (the create range of a set of plans)', () => {
  const plan = (minAmountCents: number, maxAmountCents: number): InstallmentPlan => ({ ...planById('pay_in_4'), minAmountCents, maxAmountCents });

  it('merges overlapping and adjacent limits, keeps disjoint ones apart, in ascending order', () => {
    expect(coveredRanges([plan(300, 400), plan(100, 200), plan(150, 250), plan(251, 260)])).toEqual([
      { minAmountCents: 100, maxAmountCents: 260 },
      { minAmountCents: 300, maxAmountCents: 400 },
    ]);
    expect(coveredRanges([])).toEqual([]);
  });

  it('the whole catalogue covers 5000 to 1000000 in one range; an amount in a gap is not covered', () => {
    expect(coveredRanges(PLAN_CATALOGUE)).toEqual([{ minAmountCents: 5_000, maxAmountCents: 1_000_000 }]);
    expect(anyPlanCovers([plan(100, 200), plan(300, 400)], 250)).toBe(false);
    expect(anyPlanCovers([plan(100, 200), plan(300, 400)], 300)).toBe(true);
  });
});
