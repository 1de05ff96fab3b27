// The hosted checkout in a real headless Chromium (Debian's chromium via playwright-core), with the network cut to
// loopback. The merchant's pages are served by small HTTP servers on other origins (`http://localhost:<port>`; the
// service is `http://127.0.0.1:<port>`): a full redirect to success_url, the inline iframe and the modal each
// delivering service.success to the merchant page through widget.js, the merchant's own iframe of checkout_url as
// returned (no widget.js) receiving it too, keyboard-only completion in the modal and in that iframe, Escape
// and the focus trap, an expired and a cancelled session refusing to authorize, hostile text rendered inert, and
// the page refusing to be framed by (or to message) an origin the merchant did not declare.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHROMIUM_ARGS, CHROMIUM_PATH, allowLoopbackOnly, launchChromium, watchPage, type PageProblems } from '@tributary/kit/testing/browser';
import { waitFor } from '@tributary/kit/testing';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { Loan } from '../src/modules/loans/index.js';
import { MerchantPlan } from '../src/modules/plans/index.js';
import { WidgetSession } from '../src/modules/widget-sessions/index.js';
import { createMerchant, createWidgetSession, startHarness, type Harness, type TestMerchant, type WidgetSessionOverrides } from './helpers.js';

/** A merchant's web server on its own origin: its shop pages (embedding widget.js), success and cancel pages. */
interface Shop {
  origin: string;
  /** Requests it received (path and headers), e.g. to check the redirect carried no Referer. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

let h: Harness;
let browser: Browser;
let merchant: TestMerchant;
let shop: Shop;
let otherShop: Shop;

/** The merchant page: widget.js from the service, then the merchant's own code (inline: this is the merchant's site). */
function shopPage(serviceUrl: string, mode: string, checkoutUrl: string): string {
  const start =
    mode === 'iframe'
      ? "BnplCheckout.mount('#checkout-container', checkoutUrl, options);"
      : "document.getElementById('pay').addEventListener('click', function () { BnplCheckout.open(checkoutUrl, options); });";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
<h1>The shop</h1>
<button id="pay" type="button">Pay in installments</button>
<div id="checkout-container"></div>
<p id="shop-status">waiting</p>
<script src="${serviceUrl}/widget.js"></script>
<script>
window.successes = []; window.closes = 0; window.messages = [];
window.addEventListener('message', function (event) { window.messages.push({ origin: event.origin, type: event.data && event.data.type }); });
var checkoutUrl = ${JSON.stringify(checkoutUrl)};
var options = {
  onSuccess: function (result) { window.successes.push(result); document.getElementById('shop-status').textContent = 'paid ' + result.loan_number; },
  onClose: function () { window.closes += 1; }
};
${start}
</script>
</body></html>`;
}

/**
 * A merchant page without widget.js that frames checkout_url exactly as returned and listens for service.success as
 * the README shows: only from the service's origin (checkout_url's), from its frame, for its session.
 */
function plainFramePage(checkoutUrl: string): string {
  const { origin, pathname } = new URL(checkoutUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
<h1>The shop</h1>
<iframe id="checkout-frame" title="Checkout" src="${checkoutUrl}" style="width: 100%; height: 60rem; border: 0"></iframe>
<p id="shop-status">waiting</p>
<script>
window.successes = []; window.closes = 0; window.messages = [];
var frame = document.getElementById('checkout-frame');
var sessionToken = ${JSON.stringify(pathname.split('/').pop())};
window.addEventListener('message', function (event) {
  window.messages.push({ origin: event.origin, type: event.data && event.data.type });
  if (event.origin !== ${JSON.stringify(origin)} || event.source !== frame.contentWindow) return;
  var data = event.data;
  if (!data || data.type !== 'service.success' || data.session_token !== sessionToken) return;
  window.successes.push(data);
  document.getElementById('shop-status').textContent = 'paid ' + data.loan_number;
});
</script>
</body></html>`;
}

async function startShop(serviceUrl: string): Promise<Shop> {
  const requests: Shop['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, headers: req.headers });
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (url.pathname === '/shop') return res.end(shopPage(serviceUrl, url.searchParams.get('mode') ?? 'modal', url.searchParams.get('checkout') ?? ''));
    if (url.pathname === '/framed') return res.end(plainFramePage(url.searchParams.get('checkout') ?? ''));
    if (url.pathname === '/thanks') return res.end('<!doctype html><title>Thanks</title><h1 id="thanks">Thank you for your order</h1>');
    if (url.pathname === '/cart') return res.end('<!doctype html><title>Cart</title><h1 id="cart">Your cart</h1>');
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  h = await startHarness();
  merchant = await createMerchant(h, 'Browser Shop');
  // Two plans for 120.00, so choosing one is a real choice.
  const em = h.orm.em.fork();
  em.create(MerchantPlan, { merchant: merchant.merchant.id, planId: 'monthly_3', isEnabled: true });
  await em.flush();
  shop = await startShop(h.service.url);
  otherShop = await startShop(h.service.url);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await otherShop?.close();
  await h?.close();
});

/** 12 monthly payments as well, for a long schedule (1,234.56: 3 monthly and 12 monthly cover it, Pay in 4 does not). */
async function enableLongSchedule(): Promise<void> {
  const em = h.orm.em.fork();
  if (!(await em.findOne(MerchantPlan, { merchant: merchant.merchant.id, planId: 'monthly_12' }))) em.create(MerchantPlan, { merchant: merchant.merchant.id, planId: 'monthly_12', isEnabled: true });
  await em.flush();
}

const newSession = (overrides: WidgetSessionOverrides = {}) =>
  createWidgetSession(h, merchant, { successUrl: `${shop.origin}/thanks`, cancelUrl: `${shop.origin}/cart`, ...overrides });
const checkoutUrl = (session: WidgetSession) => `${h.service.url}/checkout/${session.token}`;
const shopUrl = (session: WidgetSession, mode: 'iframe' | 'modal', on: Shop = shop) => `${on.origin}/shop?mode=${mode}&checkout=${encodeURIComponent(checkoutUrl(session))}`;
const loansOf = (session: WidgetSession) => h.orm.em.fork().find(Loan, { session: session.id });
const statusOf = async (session: WidgetSession) => (await h.orm.em.fork().findOneOrFail(WidgetSession, { id: session.id })).status;

interface ShopWindow {
  successes: Array<Record<string, unknown>>;
  closes: number;
  messages: Array<{ origin: string; type: unknown }>;
}
const shopState = (page: Page) => page.evaluate(() => {
  const w = globalThis as unknown as ShopWindow;
  return { successes: w.successes, closes: w.closes, messages: w.messages };
});

async function openPage(): Promise<{ context: BrowserContext; page: Page; problems: PageProblems; refused: string[] }> {
  const context = await browser.newContext();
  const refused = await allowLoopbackOnly(context);
  const page = await context.newPage();
  const problems = await watchPage(page);
  return { context, page, problems, refused };
}

/** The checkout frame of the merchant page, once it has loaded. */
async function checkoutFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes('/checkout/'));
    if (frame) {
      await frame.waitForSelector('#checkout');
      // Its script (the Escape and resize listeners) has run only once the frame has loaded: a key pressed before that
      // is lost, which a loaded machine showed as a hung wait for the modal to close.
      await frame.waitForLoadState('load');
      return frame;
    }
    if (Date.now() > deadline) throw new Error('no checkout frame');
    await page.waitForTimeout(50);
  }
}

/** The id of the focused element: in the checkout frame when focus is inside it. */
async function focusedId(page: Page): Promise<string> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: { id: string; tagName: string; getAttribute(n: string): string | null } | null } }).document;
    const active = doc.activeElement;
    return active ? active.id || `${active.tagName.toLowerCase()}${active.getAttribute('aria-label') ? `[${active.getAttribute('aria-label')}]` : ''}` : '';
  });
}
const frameFocusedId = (frame: Frame) => frame.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ?? '');

/** Tabs until `id` has focus in the frame (at most `limit` presses). */
async function tabTo(page: Page, frame: Frame, id: string, limit = 12): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if ((await frameFocusedId(frame)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`focus never reached #${id}`);
}

const noProblems = { consoleErrors: [], pageErrors: [], cspViolations: [] };

describe('checkout in Chromium', () => {
  it('full redirect: confirm on the page lands on success_url, without a Referer leaking the token', async () => {
    const session = await newSession();
    const { context, page, problems, refused } = await openPage();
    expect((await page.goto(checkoutUrl(session)))?.status()).toBe(200);
    expect(await page.title()).toBe('Checkout · Browser Shop');
    expect(await page.inputValue('#email')).toBe('shopper@example.com');
    // The stylesheet applied (same-origin file under the page's CSP).
    expect(await page.$eval('#confirm', (b) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(b).display)).toBe('block');
    // Confirm without the terms: the form comes back with the message, and focus on the summary linking to it.
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 422), page.click('#confirm')]);
    await page.waitForSelector('#terms-error');
    expect(await focusedId(page)).toBe('error-summary');
    expect(await page.textContent('#error-summary a[href="#terms"]')).toBe('Accept the terms to continue.');
    await page.check('#plan-monthly_3');
    await page.check('#terms');
    await Promise.all([page.waitForURL(`${shop.origin}/thanks`), page.click('#confirm')]);
    expect(await page.textContent('#thanks')).toBe('Thank you for your order');

    const [loan] = await loansOf(session);
    expect(loan!.planId).toBe('monthly_3');
    expect(await statusOf(session)).toBe('authorized');
    const thanks = shop.requests.filter((r) => r.path === '/thanks').at(-1)!;
    expect(thanks.headers.referer).toBeUndefined();
    expect(problems).toEqual({ ...noProblems, consoleErrors: ['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)'] });
    expect(refused).toEqual([]);
    await context.close();
  }, 60_000);

  it('reads on a phone: one column, nothing wider than the screen', async () => {
    await enableLongSchedule();
    const session = await newSession({ amountCents: 123_456, purchaseDescription: 'A very long description '.repeat(15) + 'Averyveryverylongwordwithoutanyspacesatallthatwouldoverflowanarrowscreen' });
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await allowLoopbackOnly(context);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto(checkoutUrl(session));
    expect(await page.$$eval('input[name="plan_id"]', (inputs) => inputs.length)).toBe(2);
    const widths = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; getElementById(id: string): { getBoundingClientRect(): { width: number } } } }).document;
      return { scroll: doc.documentElement.scrollWidth, client: doc.documentElement.clientWidth, button: doc.getElementById('confirm').getBoundingClientRect().width };
    });
    expect(widths.client).toBe(360);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.button).toBeGreaterThan(300);
    expect(problems).toEqual(noProblems);
    await context.close();
  }, 60_000);

  it('the cancel link returns the shopper to cancel_url (leaving the frame when embedded) and leaves the session open', async () => {
    const session = await newSession();
    const { context, page, problems } = await openPage();
    await page.goto(shopUrl(session, 'iframe'));
    const frame = await checkoutFrame(page);
    await Promise.all([page.waitForURL(`${shop.origin}/cart`), frame.click('#cancel-link')]);
    expect(await page.textContent('#cart')).toBe('Your cart');
    expect(await statusOf(session)).toBe('eligible');
    expect(await loansOf(session)).toEqual([]);
    expect(problems).toEqual(noProblems);
    await context.close();
  }, 60_000);

  it('inline iframe: service.success reaches the merchant page on another origin, and the frame takes the page height', async () => {
    const session = await newSession({ orderReference: 'IFRAME-1' });
    const { context, page, problems, refused } = await openPage();
    await page.goto(shopUrl(session, 'iframe'));
    const frame = await checkoutFrame(page);
    expect(frame.url()).toBe(`${checkoutUrl(session)}?embed=iframe`);
    // widget.js follows service.resize: the iframe is as tall as the checkout page, not its 40rem default.
    const pageHeight = await frame.evaluate(() => Math.ceil((globalThis as unknown as { document: { body: { getBoundingClientRect(): { height: number } } } }).document.body.getBoundingClientRect().height));
    await page.waitForFunction((height) => (globalThis as unknown as { document: { querySelector(s: string): { style: { height: string } } } }).document.querySelector('iframe').style.height === `${height}px`, pageHeight);

    await frame.check('#terms');
    await frame.click('#confirm');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 1, undefined, { timeout: 15_000 });
    const [loan] = await loansOf(session);
    const state = await shopState(page);
    expect(state.successes).toEqual([
      { type: 'service.success', session_token: session.token, loan_id: loan!.id, loan_number: loan!.loanNumber, purchase_reference: 'IFRAME-1', success_url: `${shop.origin}/thanks` },
    ]);
    expect(state.messages.filter((m) => m.type === 'service.success')).toEqual([{ origin: h.service.url, type: 'service.success' }]);
    expect(await page.textContent('#shop-status')).toBe(`paid ${loan!.loanNumber}`);
    // The merchant page stayed where it was; only the frame moved on to the confirmation.
    expect(page.url()).toBe(shopUrl(session, 'iframe'));
    expect(await frame.textContent('#headline')).toBe('Payment plan confirmed');
    // Loading the confirmation again (a reload, a second tab) sends the same message again: merchants dedupe by loan_id.
    await frame.goto(`${checkoutUrl(session)}?embed=iframe`);
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 2, undefined, { timeout: 15_000 });
    const [first, second] = (await shopState(page)).successes;
    expect(second).toEqual(first);
    expect(await loansOf(session)).toHaveLength(1);
    // widget.js opens nothing but this service's checkout pages.
    const refusal = await page.evaluate(() => {
      try {
        (globalThis as unknown as { BnplCheckout: { mount(c: string, u: string): unknown } }).BnplCheckout.mount('#checkout-container', 'https://evil.example/checkout/ws_x');
        return 'mounted';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(refusal).toBe(`BnplCheckout: checkoutUrl must be a checkout_url of ${h.service.url}`);
    expect(await page.$$('iframe')).toHaveLength(1);
    expect(problems).toEqual(noProblems);
    expect(refused).toEqual([]);
    await context.close();
  }, 60_000);

  it('spec "The shopper completes the purchase at the returned checkout URL (full redirect, iframe or modal)": the merchant\'s own iframe of checkout_url as returned, completed by keyboard, posts service.success to the parent; the frame never loads success_url', async () => {
    const session = await newSession({ orderReference: 'PLAIN-IFRAME-1' });
    const { context, page, problems, refused } = await openPage();
    const framedUrl = `${shop.origin}/framed?checkout=${encodeURIComponent(checkoutUrl(session))}`;
    const thanksBefore = shop.requests.filter((r) => r.path === '/thanks').length;
    await page.goto(framedUrl);
    const frame = await checkoutFrame(page);
    expect(frame.url()).toBe(checkoutUrl(session));

    await tabTo(page, frame, 'plan-pay_in_4');
    await page.keyboard.press('ArrowDown');
    expect(await frame.isChecked('#plan-monthly_3')).toBe(true);
    await tabTo(page, frame, 'terms');
    await page.keyboard.press('Space');
    await tabTo(page, frame, 'confirm');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 1, undefined, { timeout: 15_000 });

    const [loan] = await loansOf(session);
    expect([loan!.planId, await statusOf(session)]).toEqual(['monthly_3', 'authorized']);
    const state = await shopState(page);
    expect(state.successes).toEqual([
      { type: 'service.success', session_token: session.token, loan_id: loan!.id, loan_number: loan!.loanNumber, purchase_reference: 'PLAIN-IFRAME-1', success_url: `${shop.origin}/thanks` },
    ]);
    expect(state.messages.filter((m) => m.type === 'service.success')).toEqual([{ origin: h.service.url, type: 'service.success' }]);
    expect(await page.textContent('#shop-status')).toBe(`paid ${loan!.loanNumber}`);
    // The frame shows the service's confirmation; success_url was never loaded, in the frame or anywhere.
    await frame.waitForSelector('#loan-number');
    expect(frame.url().startsWith(checkoutUrl(session))).toBe(true);
    expect(await frame.textContent('#headline')).toBe('Payment plan confirmed');
    expect(page.url()).toBe(framedUrl);
    expect(shop.requests.filter((r) => r.path === '/thanks')).toHaveLength(thanksBefore);
    expect(problems).toEqual(noProblems);
    expect(refused).toEqual([]);
    await context.close();
  }, 60_000);

  it('spec "… (full redirect, iframe or modal)" without Sec-Fetch-Dest: the page script finds its frame, so the plain iframe still gets service.success, not success_url', async () => {
    // Chromium sends Fetch Metadata only to potentially trustworthy origins: as http://bnpl.test the service hears no
    // Sec-Fetch-Dest (as from a browser without Fetch Metadata), and only the page script can tell it is framed.
    const hosts = { service: 'bnpl.test', shop: 'shop.test' };
    const mapped = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${hosts.service} 127.0.0.1, MAP ${hosts.shop} 127.0.0.1`] });
    try {
      const context = await mapped.newContext();
      const refused: string[] = [];
      await context.route('**/*', (route) => {
        const { hostname } = new URL(route.request().url());
        if (hostname === hosts.service || hostname === hosts.shop) return route.continue();
        refused.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      const problems = await watchPage(page);
      const serviceUrl = h.service.url.replace('127.0.0.1', hosts.service);
      const shopOrigin = shop.origin.replace('localhost', hosts.shop);
      const session = await newSession({ orderReference: 'NO-FETCH-METADATA', successUrl: `${shopOrigin}/thanks`, cancelUrl: `${shopOrigin}/cart` });
      const frameSrc = `${serviceUrl}/checkout/${session.token}`;
      const thanksBefore = shop.requests.filter((r) => r.path === '/thanks').length;
      // The shop server answers /framed for any host; its page takes the service's origin from checkout_url.
      await page.goto(`${shopOrigin}/framed?checkout=${encodeURIComponent(frameSrc)}`);
      const frame = await checkoutFrame(page);
      expect(await frame.evaluate(() => (globalThis as unknown as { isSecureContext: boolean }).isSecureContext)).toBe(false);
      expect(await frame.getAttribute('#checkout', 'data-embed')).toBeNull();
      expect(await frame.getAttribute('#checkout-form', 'action')).toBe(`${frameSrc}?embed=iframe`);
      expect(await frame.getAttribute('#cancel-link', 'target')).toBe('_top');

      await frame.check('#terms');
      await frame.click('#confirm');
      await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 1, undefined, { timeout: 15_000 });
      const [loan] = await loansOf(session);
      expect((await shopState(page)).successes).toEqual([
        { type: 'service.success', session_token: session.token, loan_id: loan!.id, loan_number: loan!.loanNumber, purchase_reference: 'NO-FETCH-METADATA', success_url: `${shopOrigin}/thanks` },
      ]);
      expect(frame.url()).toBe(`${frameSrc}?embed=iframe`);
      expect(shop.requests.filter((r) => r.path === '/thanks')).toHaveLength(thanksBefore);
      expect(problems).toEqual(noProblems);
      expect(refused).toEqual([]);
    } finally {
      await mapped.close();
    }
  }, 60_000);

  it('modal: service.success reaches the merchant page, the modal closes and focus returns', async () => {
    const session = await newSession({ orderReference: 'MODAL-1' });
    const { context, page, problems, refused } = await openPage();
    await page.goto(shopUrl(session, 'modal'));
    await page.click('#pay');
    const frame = await checkoutFrame(page);
    expect(frame.url()).toBe(`${checkoutUrl(session)}?embed=modal`);
    expect(await page.getAttribute('[role="dialog"]', 'aria-modal')).toBe('true');
    expect(await focusedId(page)).toBe('button[Close checkout]');
    // The page behind is inert while the modal is open.
    expect(await page.$eval('#pay', (b) => (b as unknown as { closest(s: string): unknown }).closest('[inert]') !== null)).toBe(true);

    await frame.check('#terms');
    await frame.click('#confirm');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 1, undefined, { timeout: 15_000 });
    const [loan] = await loansOf(session);
    expect((await shopState(page)).successes).toEqual([
      { type: 'service.success', session_token: session.token, loan_id: loan!.id, loan_number: loan!.loanNumber, purchase_reference: 'MODAL-1', success_url: `${shop.origin}/thanks` },
    ]);
    expect(await page.$('[data-bnpl-checkout="modal"]')).toBeNull();
    expect(await page.$('[inert]')).toBeNull();
    expect(await focusedId(page)).toBe('pay');
    expect((await shopState(page)).closes).toBe(0);
    expect(problems).toEqual(noProblems);
    expect(refused).toEqual([]);
    await context.close();
  }, 60_000);

  it('keyboard only: open the modal, choose a plan, accept the terms and confirm without a pointer', async () => {
    const session = await newSession();
    const { context, page, problems } = await openPage();
    await page.goto(shopUrl(session, 'modal'));
    for (let i = 0; i < 5 && (await focusedId(page)) !== 'pay'; i += 1) await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('pay');
    await page.keyboard.press('Enter');
    const frame = await checkoutFrame(page);
    expect(await focusedId(page)).toBe('button[Close checkout]');

    await tabTo(page, frame, 'plan-pay_in_4');
    // The focused control shows a visible outline (CSS :focus-visible).
    expect(await frame.$eval('#plan-pay_in_4', (e) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(e).outlineStyle)).toBe('solid');
    await page.keyboard.press('ArrowDown');
    expect(await frame.isChecked('#plan-monthly_3')).toBe(true);
    await tabTo(page, frame, 'terms');
    await page.keyboard.press('Space');
    expect(await frame.isChecked('#terms')).toBe(true);
    await tabTo(page, frame, 'confirm');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).successes.length === 1, undefined, { timeout: 15_000 });
    const [loan] = await loansOf(session);
    expect([loan!.planId, loan!.customerEmail]).toEqual(['monthly_3', 'shopper@example.com']);
    expect(await focusedId(page)).toBe('pay');
    expect(problems).toEqual(noProblems);
    await context.close();
  }, 60_000);

  it('modal: Tab wraps inside the dialog; Escape inside the checkout closes it, calls onClose and restores focus; nothing booked', async () => {
    const session = await newSession();
    const { context, page, problems } = await openPage();
    await page.goto(shopUrl(session, 'modal'));
    await page.focus('#pay');
    await page.keyboard.press('Enter');
    const frame = await checkoutFrame(page);
    await tabTo(page, frame, 'cancel-link');
    // Past the checkout's last control focus wraps to the close button, never to the page behind.
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('button[Close checkout]');
    await tabTo(page, frame, 'email');
    // Key down, the dialog closes, then key up: press() would send the key up to the checkout's frame, which the close
    // has just removed, and Chromium never acknowledges an input event to a frame that is gone (a hung test, 1 run in 10).
    await page.keyboard.down('Escape');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).closes === 1);
    await page.keyboard.up('Escape');
    expect(await page.$('[data-bnpl-checkout="modal"]')).toBeNull();
    expect(await focusedId(page)).toBe('pay');
    // Escape on the merchant page and the close button close it as well.
    await page.keyboard.press('Enter');
    await checkoutFrame(page);
    await page.keyboard.down('Escape');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).closes === 2);
    await page.keyboard.up('Escape');
    await page.click('#pay');
    await checkoutFrame(page);
    await page.click('[aria-label="Close checkout"]');
    await page.waitForFunction(() => (globalThis as unknown as ShopWindow).closes === 3);
    expect(await loansOf(session)).toEqual([]);
    expect(await statusOf(session)).toBe('eligible');
    expect(problems).toEqual(noProblems);
    await context.close();
  }, 60_000);

  it('a session that expires or is cancelled while the page is open refuses to authorize', async () => {
    for (const change of ['expired', 'cancelled'] as const) {
      const session = await newSession();
      const { context, page, problems } = await openPage();
      await page.goto(checkoutUrl(session));
      await page.check('#terms');
      const em = h.orm.em.fork();
      if (change === 'expired') await em.nativeUpdate(WidgetSession, { id: session.id }, { expiresAt: new Date(Date.now() - 1_000) });
      else await em.nativeUpdate(WidgetSession, { id: session.id }, { status: 'cancelled', cancelledAt: new Date() });
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('#confirm')]);
      expect(response.status()).toBe(409);
      await page.waitForSelector('#headline');
      expect(await page.textContent('#headline')).toBe(change === 'expired' ? 'This checkout has expired' : 'This checkout was cancelled');
      expect(await page.$('form')).toBeNull();
      expect(page.url()).toBe(checkoutUrl(session));
      expect(await page.getAttribute('#cancel-link', 'href')).toBe(`${shop.origin}/cart`);
      expect(await loansOf(session)).toEqual([]);
      // Chromium reports the refusal's status on the console; nothing else went wrong.
      expect(problems).toEqual({ ...noProblems, consoleErrors: ['Failed to load resource: the server responded with a status of 409 (Conflict)'] });
      await context.close();
    }
  }, 60_000);

  it('hostile purchase_description, order_reference, e-mail and merchant name render as inert text', async () => {
    const payload = (n: number) => `<img src=x onerror="window.__xss=${n}"><script>window.__xss=${n}</script>`;
    const hostileMerchant = await createMerchant(h, `Shop ${payload(1)}`);
    const session = await createWidgetSession(h, hostileMerchant, {
      purchaseDescription: `Lamp ${payload(2)}`,
      orderReference: `R"'><svg onload="window.__xss=3">`,
      customerEmail: `"><script>window.__xss=4</script>@x.co`,
      successUrl: `${shop.origin}/thanks`,
      cancelUrl: 'javascript:window.__xss=5',
    });
    const { context, page, problems } = await openPage();
    await page.goto(`${checkoutUrl(session)}?embed=iframe`);
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.textContent('#merchant-name')).toBe(`Shop ${payload(1)}`);
    expect(await page.textContent('#purchase-description')).toBe(`Lamp ${payload(2)}`);
    expect(await page.textContent('#order-reference')).toBe(`R"'><svg onload="window.__xss=3">`);
    expect(await page.inputValue('#email')).toBe(`"><script>window.__xss=4</script>@x.co`);
    expect(await page.$$('img, svg, #checkout script')).toEqual([]);
    // A cancel_url that is not http(s) is not a link.
    expect(await page.$('#cancel-link')).toBeNull();

    // The confirmation page carries order_reference in an attribute for the script: still inert.
    await page.fill('#email', 'jo@example.com');
    await page.check('#terms');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('#confirm')]);
    await page.waitForSelector('#loan-number');
    expect(await page.getAttribute('#checkout', 'data-purchase-reference')).toBe(`R"'><svg onload="window.__xss=3">`);
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.$$('img, svg')).toEqual([]);
    expect(problems).toEqual(noProblems);
    await context.close();
  }, 60_000);

  it('only the declared origins may frame it, and service.success goes to success_url origin only', async () => {
    // Framed by an origin the session does not name: Chromium refuses to render it (frame-ancestors).
    const undeclared = await newSession();
    const first = await openPage();
    await first.page.goto(shopUrl(undeclared, 'iframe', otherShop));
    await first.page.waitForSelector('iframe');
    // Chromium reports the refusal on the console; wait for it rather than a fixed time (slow under load).
    await waitFor(async () => first.problems.consoleErrors.length, (n) => n > 0, 20_000);
    const blocked = first.page.frames().find((f) => f !== first.page.mainFrame());
    expect(await blocked!.$('#checkout').catch(() => null)).toBeNull();
    expect(first.problems.consoleErrors).toEqual([`Framing '${h.service.url}/' violates the following Content Security Policy directive: "frame-ancestors ${shop.origin}". The request has been blocked.\n`]);
    expect(await loansOf(undeclared)).toEqual([]);
    await first.context.close();

    // Framed by cancel_url's origin (declared) while success_url is elsewhere: the checkout works, but its messages
    // are addressed to success_url's origin, so this page hears nothing.
    const split = await newSession({ successUrl: `${shop.origin}/thanks`, cancelUrl: `${otherShop.origin}/cart` });
    const second = await openPage();
    await second.page.goto(shopUrl(split, 'iframe', otherShop));
    const frame = await checkoutFrame(second.page);
    await frame.check('#terms');
    await frame.click('#confirm');
    await frame.waitForSelector('#loan-number');
    await second.page.waitForTimeout(1_000);
    expect(await loansOf(split)).toHaveLength(1);
    const state = await shopState(second.page);
    expect(state.successes).toEqual([]);
    expect(state.messages).toEqual([]);
    // The frame is the same authorized page that reached the merchant in the iframe test: what differs is only the
    // parent's origin, not success_url's. Not even its resize messages arrived (the iframe kept its default height).
    expect(await frame.getAttribute('#checkout', 'data-merchant-origin')).toBe(shop.origin);
    expect(await frame.getAttribute('#checkout', 'data-status')).toBe('authorized');
    expect(await second.page.$eval('iframe', (f) => (f as unknown as { style: { height: string } }).style.height)).toBe('40rem');
    await second.context.close();
  }, 60_000);
});
