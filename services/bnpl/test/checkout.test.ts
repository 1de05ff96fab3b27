// The hosted checkout over real HTTP against real PostgreSQL (and the shared Temporal for the outbox's dispatch):
// the page's content and headers, eligibility decided and stored when it opens, the confirm form's validation, the
// loan booked with its installments in one transaction with the session authorized and the expiry workflow's signal
// queued, double and concurrent confirms booking once, expired/cancelled/ineligible sessions refusing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WIDGET_SESSION_SIGNALS, widgetSessionWorkflowId } from '@tributary/workflows';
import { CHECKOUT_ASSET_CACHE_CONTROL, CLOSED_TEXT, CheckoutService, SHOPPER_MESSAGES, WIDGET_SCRIPT_CACHE_CONTROL } from '../src/modules/checkout/index.js';
import { escapeHtml } from '@tributary/kit';
import { Installment, LOAN_NUMBER_PATTERN, Loan, loanEventData, type LoanEventSink } from '../src/modules/loans/index.js';
import { MerchantPlan, installmentSchedule, planById, type PlanId } from '../src/modules/plans/index.js';
import { WidgetSession } from '../src/modules/widget-sessions/index.js';
import { createMerchant, createWidgetSession, startHarness, type Harness, type TestMerchant, type WidgetSessionOverrides } from './helpers.js';

let h: Harness;
let url: string;
let shop: TestMerchant;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  shop = await createMerchant(h, 'Lamp & Co <Shop>');
  await enablePlans(shop, ['monthly_3', 'monthly_6']);
});
afterAll(async () => {
  await h?.close();
});

async function enablePlans(merchant: TestMerchant, plans: PlanId[], isEnabled = true): Promise<void> {
  const em = h.orm.em.fork();
  for (const planId of plans) {
    const row = await em.findOne(MerchantPlan, { merchant: merchant.merchant.id, planId });
    if (row) row.isEnabled = isEnabled;
    else em.create(MerchantPlan, { merchant: merchant.merchant.id, planId, isEnabled });
  }
  await em.flush();
}

const session = (overrides: WidgetSessionOverrides = {}, merchant = shop) => createWidgetSession(h, merchant, overrides);
const open = (token: string, query = '', headers: Record<string, string> = {}) => fetch(`${url}/checkout/${token}${query}`, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
const confirm = (token: string, fields: Record<string, string>, query = '', headers: Record<string, string> = {}) =>
  fetch(`${url}/checkout/${token}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
const validForm = (overrides: Record<string, string> = {}) => ({ plan_id: 'pay_in_4', email: 'jo@example.com', phone: '+44 20 7946 0958', terms: 'accepted', ...overrides });

const stored = (token: string) => h.orm.em.fork().findOneOrFail(WidgetSession, { token });
const loansOf = (sessionId: string) => h.orm.em.fork().find(Loan, { session: sessionId }, { populate: ['installments'] });

/** The text of the element with this id (no nested markup). */
function textOf(page: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(page)?.[1];
}

/** The installment amounts, fee and total of one schedule table on a page. */
function scheduleOf(page: string, tableId: string): { amounts: number[]; dueDates: string[]; totalCents: number; feeCents: number } {
  const table = new RegExp(`<table class="schedule" id="${tableId}" data-total-cents="(\\d+)" data-fee-cents="(\\d+)">([\\s\\S]*?)</table>`).exec(page);
  if (!table) throw new Error(`no schedule ${tableId}`);
  const rows = [...table[3]!.matchAll(/data-amount-cents="(\d+)" data-due-date="([\d-]+)"/g)];
  return { amounts: rows.map((r) => Number(r[1])), dueDates: rows.map((r) => r[2]!), totalCents: Number(table[1]), feeCents: Number(table[2]) };
}

const today = () => new Date();

describe('GET /checkout/{token}', () => {
  it('renders the session for the shopper with the strict headers, and stores eligible', async () => {
    const s = await session({ amountCents: 20_001, currency: 'EUR', purchaseDescription: 'Walnut lamp\nwith "brass" switch', orderReference: 'A-1001', customerEmail: 'ana@example.com', customerPhone: '+34911234567', livemode: true });
    const res = await open(s.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self' https://shop.example; frame-ancestors https://shop.example",
    );
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();

    expect(textOf(page, 'merchant-name')).toBe(escapeHtml('Lamp & Co <Shop>'));
    expect(textOf(page, 'amount')).toBe('€200.01');
    expect(textOf(page, 'purchase-description')).toBe('Walnut lamp\nwith &quot;brass&quot; switch');
    expect(textOf(page, 'order-reference')).toBe('A-1001');
    expect(page).toContain('id="email" name="email" autocomplete="email" required maxlength="254" value="ana@example.com"');
    expect(page).toContain('id="phone" name="phone" autocomplete="tel" maxlength="32" value="+34911234567"');
    expect(page).toContain('<input type="checkbox" id="terms" name="terms" value="accepted" required>');
    expect(page).toContain('<a id="cancel-link" href="https://shop.example/cart" rel="noreferrer">');
    expect(page).toContain('<form id="checkout-form" method="post" action="/checkout/' + s.token + '" novalidate>');

    // Enabled and covering 200.01: Pay in 4, 3 monthly, 6 monthly (not 12 monthly: disabled and above its minimum anyway).
    expect([...page.matchAll(/name="plan_id" value="([a-z_0-9]+)"/g)].map((m) => m[1])).toEqual(['pay_in_4', 'monthly_3', 'monthly_6']);
    expect(page).toContain('id="plan-pay_in_4" name="plan_id" value="pay_in_4" checked');
    for (const planId of ['pay_in_4', 'monthly_3', 'monthly_6'] as const) {
      const expected = installmentSchedule(planById(planId), 20_001, today(), true);
      const shown = scheduleOf(page, `plan-${planId}-schedule`);
      expect(shown.amounts).toEqual(expected.installments.map((i) => i.amountCents));
      expect(shown.dueDates).toEqual(expected.installments.map((i) => i.dueDate));
      expect(shown.amounts.reduce((a, b) => a + b, 0)).toBe(shown.totalCents);
      expect(shown.totalCents).toBe(20_001 + shown.feeCents);
    }
    // 6 monthly carries a 6% fee on a live loan: 1,200.06 → 12.00; the odd cents on the first installment.
    expect(scheduleOf(page, 'plan-monthly_6-schedule')).toMatchObject({ feeCents: 1_200, totalCents: 21_201, amounts: [3_536, 3_533, 3_533, 3_533, 3_533, 3_533] });
    expect(page).toContain('fee €12.00 (6% of the amount); total €212.01');

    expect((await stored(s.token)).status).toBe('eligible');
    expect((await open(s.token)).status).toBe(200);
    expect((await stored(s.token)).status).toBe('eligible');
  });

  it('a session no enabled plan covers is ineligible: a clear page, no form, the way back to cancel_url', async () => {
    const s = await session({ amountCents: 4_999 });
    const page = await (await open(s.token)).text();
    expect(page).toContain(`<h2 id="headline">${CLOSED_TEXT.ineligible.headline}</h2>`);
    expect(page).not.toContain('<form');
    expect(page).toContain('<a id="cancel-link" href="https://shop.example/cart" rel="noreferrer">');
    expect((await stored(s.token)).status).toBe('ineligible');
  });

  it('a test-mode decline e-mail is ineligible; the same e-mail in live mode is not', async () => {
    const test = await session({ customerEmail: 'jo+decline@example.com' });
    expect(await (await open(test.token)).text()).toContain('data-status="ineligible"');
    expect((await stored(test.token)).status).toBe('ineligible');
    const live = await session({ customerEmail: 'jo+decline@example.com', livemode: true });
    const livePage = await (await open(live.token)).text();
    expect(livePage).toContain('data-status="eligible"');
    expect(livePage).not.toContain('id="test-mode"');
    expect((await stored(live.token)).status).toBe('eligible');
  });

  it('an eligible session whose merchant switched its plans off since is ineligible on the next open', async () => {
    const other = await createMerchant(h, 'Switch Shop');
    const s = await session({}, other);
    await open(s.token);
    expect((await stored(s.token)).status).toBe('eligible');
    await enablePlans(other, ['pay_in_4'], false);
    expect(await (await open(s.token)).text()).toContain('data-status="ineligible"');
    expect((await stored(s.token)).status).toBe('ineligible');
  });

  it('expired and cancelled sessions show why, with no form; an expired one reads expired before the workflow stores it', async () => {
    const expired = await session({ expiresAt: new Date(Date.now() - 1_000) });
    const expiredPage = await (await open(expired.token)).text();
    expect(expiredPage).toContain(`<h2 id="headline">${CLOSED_TEXT.expired.headline}</h2>`);
    expect(expiredPage).not.toContain('<form');
    expect((await stored(expired.token)).status).toBe('initialized');

    const cancelled = await session({ status: 'cancelled', cancelledAt: new Date() });
    const cancelledPage = await (await open(cancelled.token)).text();
    expect(cancelledPage).toContain(`<h2 id="headline">${CLOSED_TEXT.cancelled.headline}</h2>`);
    expect(cancelledPage).not.toContain('<form');
  });

  it('an unknown or malformed token is a 404 page (JSON for JSON clients), never framed', async () => {
    for (const token of ['ws_00000000000000000000000000000000', 'nope', 'ws_%3Cscript%3E']) {
      const res = await open(token);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<h1 id="headline">Checkout not found</h1>');
    }
    const json = await open('ws_00000000000000000000000000000000', '', { accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('frames only for the merchant: frame-ancestors lists success_url and cancel_url origins', async () => {
    const s = await session({ successUrl: 'https://shop.example:8443/done', cancelUrl: 'http://localhost:3000/cart' });
    const res = await open(s.token, '?embed=modal');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.example:8443; frame-ancestors https://shop.example:8443 http://localhost:3000");
    const page = await res.text();
    expect(page).toContain('data-embed="modal" data-merchant-origin="https://shop.example:8443"');
    expect(page).toContain('action="/checkout/' + s.token + '?embed=modal"');
    expect(page).toContain('<a id="cancel-link" href="http://localhost:3000/cart" rel="noreferrer" target="_top">');
  });
});

describe('POST /checkout/{token} (confirm)', () => {
  it('books the loan with its installments, authorizes the session and queues the expiry signal; redirect mode answers 303 to success_url', async () => {
    const s = await session({ amountCents: 30_001, currency: 'GBP', orderReference: 'ORD-77', successUrl: 'https://shop.example/thanks?order=77', livemode: true });
    await open(s.token);
    const before = new Date();
    const res = await confirm(s.token, validForm({ plan_id: 'monthly_6', email: ' Jo@Example.com ' }));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://shop.example/thanks?order=77');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');

    const after = await stored(s.token);
    expect(after.status).toBe('authorized');
    expect(after.authorizedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    const [loan, ...more] = await loansOf(s.id);
    expect(more).toEqual([]);
    const schedule = installmentSchedule(planById('monthly_6'), 30_001, after.authorizedAt!, true);
    expect({
      loanNumber: loan!.loanNumber,
      merchant: loan!.merchant.id,
      livemode: loan!.livemode,
      status: loan!.status,
      planId: loan!.planId,
      principalCents: loan!.principalCents,
      feeCents: loan!.feeCents,
      totalCents: loan!.totalCents,
      currency: loan!.currency,
      purchaseReference: loan!.purchaseReference,
      customerEmail: loan!.customerEmail,
      customerPhone: loan!.customerPhone,
      disbursedAt: loan!.disbursedAt,
    }).toEqual({
      loanNumber: expect.stringMatching(LOAN_NUMBER_PATTERN),
      merchant: shop.merchant.id,
      livemode: true,
      status: 'approved',
      planId: 'monthly_6',
      principalCents: 30_001,
      feeCents: 1_800,
      totalCents: 31_801,
      currency: 'GBP',
      purchaseReference: 'ORD-77',
      customerEmail: 'Jo@Example.com',
      customerPhone: '+442079460958',
      disbursedAt: null,
    });
    const installments = loan!.installments.getItems().map((i: Installment) => ({ installmentNumber: i.installmentNumber, amountCents: i.amountCents, dueDate: i.dueDate, paidAt: i.paidAt }));
    expect(installments).toEqual(schedule.installments.map((i) => ({ ...i, paidAt: null })));
    expect(installments.reduce((sum, i) => sum + i.amountCents, 0)).toBe(loan!.totalCents);

    const outbox = await h.orm.em.fork().getConnection().execute<Array<{ kind: string; signal_name: string }>>(`select "kind", "signal_name" from "workflow_outbox" where "workflow_id" = ?`, [widgetSessionWorkflowId(s.id)]);
    expect(outbox).toEqual([{ kind: 'signal', signal_name: WIDGET_SESSION_SIGNALS.authorized }]);
  });

  it('spec "No fees apply in test mode.": a test-mode loan has no shopper fee; the page, the loan, its sale, the export and loan.authorized show none', async () => {
    const s = await session({ amountCents: 30_001, currency: 'GBP', orderReference: 'NO-FEE-1' });
    const page = await (await open(s.token)).text();
    const offered = scheduleOf(page, 'plan-monthly_6-schedule');
    expect(offered).toMatchObject({ feeCents: 0, totalCents: 30_001 });
    expect(offered.amounts.reduce((a, b) => a + b, 0)).toBe(30_001);
    expect(page).toContain('6 monthly payments; no fee in test mode; total £300.01');

    expect((await confirm(s.token, validForm({ plan_id: 'monthly_6' }))).status).toBe(303);
    const [loan] = await loansOf(s.id);
    expect([loan!.livemode, loan!.principalCents, loan!.feeCents, loan!.totalCents]).toEqual([false, 30_001, 0, 30_001]);
    expect(loan!.installments.getItems().map((i: Installment) => i.amountCents)).toEqual([5_001, 5_000, 5_000, 5_000, 5_000, 5_000]);
    expect(loanEventData(loan!)).toMatchObject({ principal_cents: 30_001, total_cents: 30_001 });
    expect(scheduleOf(await (await open(s.token)).text(), 'loan-schedule')).toMatchObject({ feeCents: 0, totalCents: 30_001 });

    const dt = { authorization: `Bearer ${shop.token}` };
    const sale = (await (await fetch(`${url}/api/v1/merchant/sales/${loan!.id}`, { headers: dt })).json()) as { fee_cents: number; total_cents: number; plan: { fee_bps: number }; installments: Array<{ amount_cents: number }> };
    expect([sale.fee_cents, sale.total_cents, sale.plan.fee_bps]).toEqual([0, 30_001, 0]);
    expect(sale.installments.reduce((sum, i) => sum + i.amount_cents, 0)).toBe(30_001);
    const row = (await (await fetch(`${url}/api/v1/merchant/sales/export.csv`, { headers: dt })).text()).split('\r\n').find((line) => line.startsWith(loan!.id));
    // plan_id, principal_cents, fee_cents, total_cents
    expect(row!.split(',').slice(3, 7)).toEqual(['monthly_6', '30001', '0', '30001']);
  });

  it('a double submit books once: the second confirm gets the same success', async () => {
    const s = await session();
    expect((await confirm(s.token, validForm())).headers.get('location')).toBe('https://shop.example/thanks');
    const again = await confirm(s.token, validForm({ plan_id: 'monthly_3', email: 'other@example.com' }));
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('https://shop.example/thanks');
    const loans = await loansOf(s.id);
    expect(loans.map((l) => [l.planId, l.customerEmail])).toEqual([['pay_in_4', 'jo@example.com']]);
    // Opening the page again shows the confirmation.
    const page = await (await open(s.token)).text();
    expect(page).toContain('<h2 id="headline">Payment plan confirmed</h2>');
    expect(textOf(page, 'loan-number')).toBe(loans[0]!.loanNumber);
    expect(page).not.toContain('<form');
  });

  it('concurrent confirms (two tabs, a double click) book exactly one loan and all land on success_url', async () => {
    const s = await session();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => confirm(s.token, validForm({ email: `tab${i}@example.com` }))));
    expect(answers.map((r) => [r.status, r.headers.get('location')])).toEqual(Array.from({ length: 8 }, () => [303, 'https://shop.example/thanks']));
    expect(await loansOf(s.id)).toHaveLength(1);
    expect(await h.orm.em.fork().count(Installment, { loan: { session: s.id } })).toBe(4);
  });

  it('embedded (?embed=iframe|modal): the success page carries what service.success sends, no redirect', async () => {
    for (const embed of ['iframe', 'modal']) {
      const s = await session({ orderReference: `EMB-${embed}` });
      const res = await confirm(s.token, validForm(), `?embed=${embed}`);
      expect(res.status).toBe(200);
      const page = await res.text();
      const [loan] = await loansOf(s.id);
      expect(page).toContain(
        `<main id="checkout" class="checkout" data-status="authorized" data-session-token="${s.token}" data-embed="${embed}" data-merchant-origin="https://shop.example" data-loan-id="${loan!.id}" data-loan-number="${loan!.loanNumber}" data-purchase-reference="EMB-${embed}" data-success-url="https://shop.example/thanks">`,
      );
      expect(page).toContain('<a id="continue-link" href="https://shop.example/thanks" rel="noreferrer" target="_top">');
      expect(scheduleOf(page, 'loan-schedule').amounts).toEqual([3_000, 3_000, 3_000, 3_000]);
    }
  });

  it('spec "completes the purchase at the returned checkout URL (full redirect, iframe or modal)": checkout_url framed as returned (Sec-Fetch-Dest: iframe) is the inline iframe, so confirming answers the success page, not a redirect', async () => {
    const framed = { 'sec-fetch-dest': 'iframe' };
    const s = await session({ orderReference: 'PLAIN-FRAME' });
    const opened = await open(s.token, '', framed);
    expect(opened.headers.get('vary')).toContain('Sec-Fetch-Dest');
    expect(opened.headers.get('content-security-policy')).toContain('frame-ancestors https://shop.example');
    const page = await opened.text();
    expect(page).toContain(`data-session-token="${s.token}" data-embed="iframe" data-merchant-origin="https://shop.example"`);
    expect(page).toContain(`<form id="checkout-form" method="post" action="/checkout/${s.token}?embed=iframe" novalidate>`);
    expect(page).toContain('<a id="cancel-link" href="https://shop.example/cart" rel="noreferrer" target="_top">');

    // A confirm from the frame is the inline iframe's even without the query: Sec-Fetch-Dest alone says so.
    const res = await confirm(s.token, validForm(), '', framed);
    expect([res.status, res.headers.get('location')]).toEqual([200, null]);
    const [loan] = await loansOf(s.id);
    expect(await res.text()).toContain(
      `data-status="authorized" data-session-token="${s.token}" data-embed="iframe" data-merchant-origin="https://shop.example" data-loan-id="${loan!.id}" data-loan-number="${loan!.loanNumber}" data-purchase-reference="PLAIN-FRAME" data-success-url="https://shop.example/thanks">`,
    );
    // The same page in the shopper's window (Sec-Fetch-Dest: document) is the full redirect.
    const whole = await session();
    expect(await (await open(whole.token, '', { 'sec-fetch-dest': 'document' })).text()).not.toContain('data-embed=');
    const redirected = await confirm(whole.token, validForm(), '', { 'sec-fetch-dest': 'document' });
    expect([redirected.status, redirected.headers.get('location')]).toEqual([303, 'https://shop.example/thanks']);
  });

  it('invalid input re-renders the form (422) with each message next to its field and the values kept; nothing stored', async () => {
    const s = await session();
    await open(s.token);
    const res = await confirm(s.token, { plan_id: 'pay_in_4', email: 'jo@', phone: '12345', notes: 'ignored' });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain(`<p class="field-error" id="email-error">${escapeHtml(SHOPPER_MESSAGES.emailInvalid)}</p>`);
    expect(page).toContain(`<p class="field-error" id="phone-error">${escapeHtml(SHOPPER_MESSAGES.phoneInvalid)}</p>`);
    expect(page).toContain(`<p class="field-error" id="terms-error">${escapeHtml(SHOPPER_MESSAGES.terms)}</p>`);
    expect(page).toContain('value="jo@" aria-invalid="true" aria-describedby="email-error"');
    expect(page).toContain('value="12345" aria-invalid="true" aria-describedby="phone-hint phone-error"');
    expect(page).toContain('id="plan-pay_in_4" name="plan_id" value="pay_in_4" checked');
    expect((await stored(s.token)).status).toBe('eligible');
    expect(await loansOf(s.id)).toEqual([]);

    // A plan the merchant has not enabled (or that does not cover the amount) is refused on the plan field.
    const notOffered = await confirm(s.token, validForm({ plan_id: 'monthly_12' }));
    expect(notOffered.status).toBe(422);
    expect(await notOffered.text()).toContain(`<p class="field-error" id="plan_id-error">${escapeHtml(SHOPPER_MESSAGES.planNotOffered)}</p>`);
    expect((await stored(s.token)).status).toBe('eligible');
    expect(await loansOf(s.id)).toEqual([]);
  });

  it('re-checks eligibility with the entered e-mail: a test decline makes the session ineligible for good', async () => {
    const s = await session();
    await open(s.token);
    const declined = await confirm(s.token, validForm({ email: 'decline@example.com' }));
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain(`<h2 id="headline">${CLOSED_TEXT.ineligible.headline}</h2>`);
    expect((await stored(s.token)).status).toBe('ineligible');
    const retry = await confirm(s.token, validForm());
    expect(retry.status).toBe(409);
    expect(await retry.text()).toContain('data-status="ineligible"');
    expect(await loansOf(s.id)).toEqual([]);
  });

  it('expired and cancelled sessions refuse to authorize (409), nothing stored', async () => {
    const expired = await session({ status: 'eligible', expiresAt: new Date(Date.now() - 1) });
    const cancelled = await session({ status: 'cancelled', cancelledAt: new Date() });
    for (const [s, status] of [[expired, 'expired'], [cancelled, 'cancelled']] as const) {
      const res = await confirm(s.token, validForm());
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain(`<h2 id="headline">${CLOSED_TEXT[status].headline}</h2>`);
      expect(page).not.toContain('<form');
      expect(await loansOf(s.id)).toEqual([]);
    }
    expect((await stored(expired.token)).status).toBe('eligible');
    expect((await stored(cancelled.token)).status).toBe('cancelled');
  });

  it('confirming a session never opened decides eligibility in the same transaction; live sessions book live loans', async () => {
    const s = await session({ livemode: true });
    expect((await confirm(s.token, validForm({ email: 'decline@example.com' }))).status).toBe(303);
    const [loan] = await loansOf(s.id);
    expect([loan!.livemode, loan!.customerEmail]).toEqual([true, 'decline@example.com']);
  });

  it('an unknown token is 404; a body that is not a form is 415', async () => {
    expect((await confirm('ws_00000000000000000000000000000000', validForm())).status).toBe(404);
    const s = await session();
    const text = await fetch(`${url}/checkout/${s.token}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    // A form bigger than 8 kB or with more than 20 fields is no shopper's form: 413, nothing stored.
    const big = await confirm(s.token, validForm({ email: `${'a'.repeat(9_000)}@example.com` }));
    expect([big.status, await big.json()]).toEqual([413, { error: { code: 'payload_too_large', message: 'The request body is too large.' } }]);
    const many = await confirm(s.token, Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, 'x'])));
    expect(many.status).toBe(413);
    expect(await loansOf(s.id)).toEqual([]);
  });
});

describe('loan.authorized through the LoanEventSink', () => {
  it('is emitted inside the booking transaction, and its after-commit work runs once the loan is committed', async () => {
    const seen: Array<{ loanId: string; inTransaction: boolean; visibleInTransaction: boolean; committedBeforeAfterCommit?: boolean }> = [];
    // A sink doing what the webhooks sink does: reads the loan through the transaction it is given, and hands back
    // after-commit work (here: checking from another connection that the loan is committed).
    const sink: LoanEventSink = {
      async emit(tx: EntityManager, loan, event) {
        expect(event).toBe('loan.authorized');
        const record = { loanId: loan.id, inTransaction: tx.isInTransaction(), visibleInTransaction: (await tx.getConnection().execute(`select 1 from loans where id = ?`, [loan.id], 'all', tx.getTransactionContext())).length === 1 };
        seen.push(record);
        return async () => {
          (record as { committedBeforeAfterCommit?: boolean }).committedBeforeAfterCommit = (await h.orm.em.fork().count(Loan, { id: loan.id })) === 1;
        };
      },
    };
    const s = await session();
    const outcome = await new CheckoutService(h.orm.em.fork(), { events: sink }).confirm(s.token, validForm());
    expect(outcome.kind).toBe('booked');
    const [loan] = await loansOf(s.id);
    expect(seen).toEqual([{ loanId: loan!.id, inTransaction: true, visibleInTransaction: true, committedBeforeAfterCommit: true }]);
    // The replay emits nothing.
    expect((await new CheckoutService(h.orm.em.fork(), { events: sink }).confirm(s.token, validForm())).kind).toBe('booked');
    expect(seen).toHaveLength(1);
  });
});

describe('static files', () => {
  it('serves widget.js for merchant pages with a day-long cache, and the page assets', async () => {
    const widget = await fetch(`${url}/widget.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(widget.headers.get('cache-control')).toBe(WIDGET_SCRIPT_CACHE_CONTROL);
    expect(WIDGET_SCRIPT_CACHE_CONTROL).toBe('public, max-age=86400');
    expect(widget.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(widget.headers.get('etag')).toBeTruthy();
    expect(await widget.text()).toContain('window.BnplCheckout = { open: open, mount: mount, origin: SERVICE_ORIGIN };');
    for (const [file, type] of [['checkout.css', 'text/css; charset=utf-8'], ['checkout.js', 'text/javascript; charset=utf-8']]) {
      const res = await fetch(`${url}/checkout-assets/${file}`);
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, type, CHECKOUT_ASSET_CACHE_CONTROL]);
    }
    expect((await fetch(`${url}/checkout-assets/widget.js`)).status).toBe(404);
    expect((await fetch(`${url}/checkout-assets/..%2Fcheckout.service.ts`)).status).toBe(404);
  });
});
