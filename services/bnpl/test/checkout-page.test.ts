// The checkout's pure parts: the eligibility rule, the shopper form's validation, money and date formatting, the
// escaping HTML builder, the CSP and embedding rules, and the page views rendered from hand-made models.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { escapeHtml, html, safeHref } from '@tributary/kit';
import {
  CHECKOUT_MESSAGES,
  CHECKOUT_STATIC_DIR,
  E164_PATTERN,
  NO_SESSION_CONTENT_SECURITY_POLICY,
  SHOPPER_MESSAGES,
  checkShopperForm,
  checkoutPageContentSecurityPolicy,
  checkoutPath,
  decideEligibility,
  formatBps,
  formatDueDate,
  formatMoney,
  isDeclineTriggerEmail,
  merchantOrigins,
  normalizePhone,
  parseEmbedMode,
  planCadence,
  plansCovering,
  renderCheckoutPage,
  type CheckoutSummary,
  type FormPage,
} from '../src/modules/checkout/index.js';
import { PLAN_CATALOGUE, installmentSchedule, planById } from '../src/modules/plans/index.js';

const payIn4 = planById('pay_in_4');
const monthly3 = planById('monthly_3');
const monthly12 = planById('monthly_12');

describe('eligibility rule', () => {
  const base = { amountCents: 12_000, livemode: false, enabledPlans: [payIn4], customerEmail: 'shopper@example.com' };

  it('is eligible when an enabled plan covers the amount, offering exactly the covering plans in catalogue order', () => {
    expect(decideEligibility(base)).toEqual({ decision: 'eligible', plans: [payIn4] });
    expect(decideEligibility({ ...base, amountCents: 60_000, enabledPlans: [payIn4, monthly3, monthly12] })).toEqual({ decision: 'eligible', plans: [payIn4, monthly3, monthly12] });
    // 1,500.00: beyond Pay in 4's 1,000.00, inside 3 monthly's 3,000.00.
    expect(decideEligibility({ ...base, amountCents: 150_000, enabledPlans: [payIn4, monthly3] })).toEqual({ decision: 'eligible', plans: [monthly3] });
  });

  it('plan limits are inclusive at both ends', () => {
    expect(plansCovering([payIn4], payIn4.minAmountCents)).toEqual([payIn4]);
    expect(plansCovering([payIn4], payIn4.maxAmountCents)).toEqual([payIn4]);
    expect(plansCovering([payIn4], payIn4.minAmountCents - 1)).toEqual([]);
    expect(plansCovering([payIn4], payIn4.maxAmountCents + 1)).toEqual([]);
  });

  it('is ineligible when no enabled plan covers the amount, or none is enabled', () => {
    expect(decideEligibility({ ...base, amountCents: 4_999 })).toEqual({ decision: 'ineligible', reason: 'no_plan_covers_amount', plans: [] });
    expect(decideEligibility({ ...base, amountCents: 150_000 })).toEqual({ decision: 'ineligible', reason: 'no_plan_covers_amount', plans: [] });
    expect(decideEligibility({ ...base, enabledPlans: [] })).toEqual({ decision: 'ineligible', reason: 'no_plan_covers_amount', plans: [] });
  });

  it('declines the test-mode trigger e-mails, in test mode only', () => {
    for (const email of ['decline@example.com', 'jo+decline@example.com', 'DECLINE@Example.com', 'a.b+Decline@shop.test']) {
      expect(isDeclineTriggerEmail(email)).toBe(true);
      expect(decideEligibility({ ...base, customerEmail: email })).toEqual({ decision: 'ineligible', reason: 'declined', plans: [] });
      expect(decideEligibility({ ...base, livemode: true, customerEmail: email })).toEqual({ decision: 'eligible', plans: [payIn4] });
    }
    for (const email of ['declined@example.com', 'decline+jo@example.com', 'nodecline@example.com', 'shopper@decline.com', 'decline', '@decline']) {
      expect(isDeclineTriggerEmail(email)).toBe(false);
    }
    expect(decideEligibility({ ...base, customerEmail: null })).toEqual({ decision: 'eligible', plans: [payIn4] });
  });

  it('the amount rule comes first: an uncovered amount is no_plan_covers_amount even for a decline trigger', () => {
    expect(decideEligibility({ ...base, amountCents: 100, customerEmail: 'decline@example.com' })).toMatchObject({ reason: 'no_plan_covers_amount' });
  });
});

describe('shopper form validation', () => {
  const valid = { plan_id: 'pay_in_4', email: ' shopper@example.com ', phone: '+1 (415) 555-0123', terms: 'accepted' };

  it('accepts a complete form, trimming the e-mail and normalising the phone to E.164', () => {
    expect(checkShopperForm(valid)).toEqual({
      ok: true,
      details: { planId: 'pay_in_4', email: 'shopper@example.com', phone: '+14155550123' },
      values: { planId: 'pay_in_4', email: 'shopper@example.com', phone: '+1 (415) 555-0123', termsAccepted: true },
    });
    expect(checkShopperForm({ ...valid, phone: '' })).toMatchObject({ ok: true, details: { phone: null } });
    expect(normalizePhone('+44 20 7946.0958')).toBe('+442079460958');
    expect(E164_PATTERN.test('+442079460958')).toBe(true);
  });

  it('names each offending field with the shopper-facing message, one per field', () => {
    expect(checkShopperForm({})).toEqual({
      ok: false,
      errors: { plan_id: [SHOPPER_MESSAGES.plan], email: [SHOPPER_MESSAGES.emailRequired], terms: [SHOPPER_MESSAGES.terms] },
      values: { planId: '', email: '', phone: '', termsAccepted: false },
    });
    expect(checkShopperForm({ ...valid, plan_id: 'pay_in_40', email: 'not-an-email', phone: '0123', terms: 'yes' })).toMatchObject({
      ok: false,
      errors: { plan_id: [SHOPPER_MESSAGES.plan], email: [SHOPPER_MESSAGES.emailInvalid], phone: [SHOPPER_MESSAGES.phoneInvalid], terms: [SHOPPER_MESSAGES.terms] },
    });
  });

  it('refuses e-mails too long or holding NUL, phones beyond 15 digits, and reads a repeated field by its first value', () => {
    expect(checkShopperForm({ ...valid, email: `${'a'.repeat(250)}@example.com` })).toMatchObject({ ok: false, errors: { email: [SHOPPER_MESSAGES.emailInvalid] } });
    expect(checkShopperForm({ ...valid, email: 'a\u0000b@example.com' })).toMatchObject({ ok: false, errors: { email: [SHOPPER_MESSAGES.emailInvalid] } });
    expect(checkShopperForm({ ...valid, phone: '+1234567890123456' })).toMatchObject({ ok: false, errors: { phone: [SHOPPER_MESSAGES.phoneInvalid] } });
    expect(checkShopperForm({ ...valid, plan_id: ['monthly_3', 'pay_in_4'] })).toMatchObject({ ok: true, details: { planId: 'monthly_3' } });
    expect(checkShopperForm(null)).toMatchObject({ ok: false });
  });
});

describe('formatting', () => {
  it('money from minor units, by currency', () => {
    expect(formatMoney(12_345, 'USD')).toBe('$123.45');
    expect(formatMoney(12_345, 'EUR')).toBe('€123.45');
    expect(formatMoney(12_345, 'GBP')).toBe('£123.45');
    expect(formatMoney(100_000_00, 'USD')).toBe('$100,000.00');
    expect(formatMoney(1, 'USD')).toBe('$0.01');
    expect(formatMoney(0, 'EUR')).toBe('€0.00');
  });

  it('due dates, fees and cadences', () => {
    expect(formatDueDate('2026-11-23')).toBe('23 Nov 2026');
    expect(formatDueDate('2027-02-28')).toBe('28 Feb 2027');
    expect(formatBps(600)).toBe('6%');
    expect(formatBps(1_250)).toBe('12.5%');
    expect(PLAN_CATALOGUE.map(planCadence)).toEqual(['4 payments every 2 weeks', '3 monthly payments', '6 monthly payments', '12 monthly payments']);
  });
});

describe('HTML building', () => {
  it('escapes every interpolated value, inserts nested templates as they are', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const hostile = '"><script>alert(1)</script>';
    expect(html`<p title="${hostile}">${hostile}</p>`.value).toBe('<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html`<ul>${['<a>', html`<li>${'&'}</li>`]}</ul>`.value).toBe('<ul>&lt;a&gt;<li>&amp;</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
  });

  it('links only to http(s) URLs', () => {
    expect(safeHref('https://shop.example/thanks?a=1&b=2')).toBe('https://shop.example/thanks?a=1&b=2');
    expect(safeHref('http://localhost:3000/cart')).toBe('http://localhost:3000/cart');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
  });
});

describe('embedding rules', () => {
  it('frame-ancestors are the distinct origins of success_url and cancel_url; messages go to success_url origin only', () => {
    expect(merchantOrigins({ successUrl: 'https://shop.example/thanks?x=1', cancelUrl: 'https://shop.example/cart' })).toEqual({ messageTarget: 'https://shop.example', frameAncestors: ['https://shop.example'] });
    expect(merchantOrigins({ successUrl: 'https://shop.example:8443/ok', cancelUrl: 'https://www.shop.example/cart' })).toEqual({
      messageTarget: 'https://shop.example:8443',
      frameAncestors: ['https://shop.example:8443', 'https://www.shop.example'],
    });
    expect(merchantOrigins({ successUrl: 'javascript:alert(1)', cancelUrl: 'nonsense' })).toEqual({ messageTarget: null, frameAncestors: [] });
  });

  it('the page CSP: same-origin script and style, no inline, form posts to itself and success_url, framed by the merchant only', () => {
    expect(checkoutPageContentSecurityPolicy(merchantOrigins({ successUrl: 'https://shop.example/thanks', cancelUrl: 'https://cart.example/back' }))).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self' https://shop.example; frame-ancestors https://shop.example https://cart.example",
    );
    expect(checkoutPageContentSecurityPolicy({ messageTarget: null, frameAncestors: [] })).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(NO_SESSION_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });

  it('embed modes, the form action keeping them, and the message names the static scripts use', () => {
    expect(parseEmbedMode('iframe')).toBe('iframe');
    expect(parseEmbedMode('modal')).toBe('modal');
    expect(parseEmbedMode('popup')).toBeNull();
    expect(parseEmbedMode(['iframe'])).toBeNull();
    expect(parseEmbedMode(undefined)).toBeNull();
    expect(checkoutPath('ws_abc', 'modal')).toBe('/checkout/ws_abc?embed=modal');
    expect(checkoutPath('ws_abc', null)).toBe('/checkout/ws_abc');
    expect(CHECKOUT_MESSAGES).toEqual({ success: 'service.success', close: 'service.close', resize: 'service.resize' });
    const literal = `var MESSAGES = { success: '${CHECKOUT_MESSAGES.success}', close: '${CHECKOUT_MESSAGES.close}', resize: '${CHECKOUT_MESSAGES.resize}' };`;
    for (const file of ['checkout.js', 'widget.js']) expect(readFileSync(path.join(CHECKOUT_STATIC_DIR, file), 'utf8')).toContain(literal);
  });
});

describe('page views', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const hostile = '<img src=x onerror=alert(1)>"\'&';
  const summary: CheckoutSummary = {
    token: 'ws_0123456789abcdefABCDEF0123456789',
    merchantName: `Shop ${hostile}`,
    amountCents: 12_001,
    currency: 'EUR',
    purchaseDescription: `Lamp ${hostile}`,
    orderReference: `ref ${hostile}`,
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'javascript:alert(1)',
    livemode: false,
    expiresAt: new Date('2026-11-23T10:30:00Z'),
  };
  const formPage = (errors: FormPage['errors'] = {}): FormPage => ({
    kind: 'form',
    summary,
    offers: [{ plan: payIn4, schedule: installmentSchedule(payIn4, 12_001, now, false) }],
    values: { planId: 'pay_in_4', email: `x${hostile}@example.com`, phone: '', termsAccepted: false },
    errors,
  });

  it('escapes every text the merchant or shopper supplied; no markup of theirs survives', () => {
    const page = renderCheckoutPage(formPage(), { embed: null, messageTarget: 'https://shop.example', now });
    expect(page).not.toContain('<img');
    expect(page).not.toContain('onerror=alert(1)>');
    expect(page).toContain('Shop &lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(page).toContain('value="x&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;@example.com"');
    expect(page).not.toContain('<script>');
    // No event handler or style attribute anywhere (attribute values are double-quoted and hold no quote of their own).
    const attributeNames = [...page.matchAll(/<[a-z][a-z0-9]*((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/g)].flatMap((tag) => [...tag[1]!.matchAll(/\s+([a-z-]+)(?:="[^"]*")?/g)].map((a) => a[1]));
    expect(attributeNames.length).toBeGreaterThan(50);
    expect(attributeNames.filter((name) => name === 'style' || name!.startsWith('on'))).toEqual([]);
    // A cancel_url that is not http(s) is no link at all.
    expect(page).not.toContain('javascript:');
    expect(page).not.toContain('id="cancel-link"');
  });

  it('shows the schedule with exact amounts (odd cent first), fee and total, and today marked', () => {
    const page = renderCheckoutPage(formPage(), { embed: null, messageTarget: 'https://shop.example', now });
    expect(page).toContain('data-amount-cents="3001" data-due-date="2026-11-23">€30.01</td>');
    expect(page.match(/data-amount-cents="3000"/g)).toHaveLength(3);
    expect(page).toContain('<time datetime="2026-11-23">23 Nov 2026</time> (today)');
    expect(page).toContain('<time datetime="2027-01-04">4 Jan 2027</time>');
    expect(page).toContain('<td class="num total">€120.01</td>');
    expect(page).toContain('<td class="num fee">€0.00</td>');
    expect(page).toContain('Test mode: no real loan is made and no money moves.');
  });

  it('puts each message next to its field and in a focusable summary linking to it', () => {
    const page = renderCheckoutPage(formPage({ email: [SHOPPER_MESSAGES.emailInvalid], terms: [SHOPPER_MESSAGES.terms] }), { embed: 'iframe', messageTarget: 'https://shop.example', now });
    expect(page).toContain('aria-invalid="true" aria-describedby="email-error"');
    expect(page).toContain(`<p class="field-error" id="email-error">${escapeHtml(SHOPPER_MESSAGES.emailInvalid)}</p>`);
    expect(page).toContain(`<li><a href="#email">${escapeHtml(SHOPPER_MESSAGES.emailInvalid)}</a></li>`);
    expect(page).toContain('<div id="error-summary" class="error-summary" role="alert" tabindex="-1">');
    expect(page).toContain('action="/checkout/ws_0123456789abcdefABCDEF0123456789?embed=iframe"');
    expect(page).toContain('data-embed="iframe" data-merchant-origin="https://shop.example"');
  });

  it('every form control has a label', () => {
    const page = renderCheckoutPage(formPage(), { embed: null, messageTarget: 'https://shop.example', now });
    const inputIds = [...page.matchAll(/<input [^>]*id="([^"]+)"/g)].map((m) => m[1]);
    expect(inputIds).toEqual(['plan-pay_in_4', 'email', 'phone', 'terms']);
    for (const id of inputIds) expect(page).toContain(`<label for="${id}">`);
  });
});
