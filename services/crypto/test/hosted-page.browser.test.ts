// The hosted payer page in a real headless Chromium (Debian's `chromium` package, driven by playwright-core):
// the countdown ticks, nothing violates the Content-Security-Policy, and a payment recorded through PaymentService
// moves the status to partial, then paid, without a reload, after which the page navigates to redirect_url.
// redirect_url must be https on a public address (create validation), which the harness cannot serve: the browser's
// request to it is answered by Playwright's router, so the navigation itself is real and observed. A second test
// watches the countdown reach a deadline a few seconds away and the status move to expired, again without a reload.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { PaymentRequest, PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, createRequest, startHarness, type Harness } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const REDIRECT_URL = 'https://93.184.216.34/thanks?order=7';

let h: Harness;
let context: BrowserContext;
let userDataDir: string;
let accountId: number;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The hosted-page browser test needs Debian's chromium at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\`.`);
  }
  h = await startHarness();
  accountId = (await createMerchant(h, 'Browser merchant')).accountId;
  userDataDir = mkdtempSync(path.join(tmpdir(), 'tributary-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await h?.close();
});

describe('hosted payer page in Chromium', () => {
  it('ticks the countdown, obeys the CSP, and follows payments live to paid and then redirect_url', async () => {
    const request = await createRequest(new PaymentRequestService(h.orm.em.fork()), { accountId, apiKeyId: 0 }, {
      asset_id: 1,
      title: 'Order <7>',
      amount: '0.5',
      reference: 'REF-NOT-FOR-PAYER',
      redirect_url: REDIRECT_URL,
      ttl_minutes: 15,
    });
    const page: Page = await context.newPage();
    const consoleMessages: string[] = [];
    const pageErrors: string[] = [];
    page.on('console', (message: ConsoleMessage) => consoleMessages.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const mainFrameNavigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) mainFrameNavigations.push(frame.url());
    });
    const redirectRequests: string[] = [];
    await page.route('https://93.184.216.34/**', async (route) => {
      redirectRequests.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Thanks</title><p>Back at the shop</p>' });
    });

    const pageUrl = `${h.service.url}/pay/${request.slug}`;
    const response = await page.goto(pageUrl, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Pay: Order <7>');
    expect(await page.textContent('#status')).toBe('Awaiting payment');
    expect(await page.textContent('body')).not.toContain('REF-NOT-FOR-PAYER');

    // The script ran (copy buttons are shown only by it), the stylesheet and the QR image loaded.
    expect(await page.isVisible('button[data-copy-target="address"]')).toBe(true);
    expect(await page.isVisible('button[data-copy-target="amount-outstanding"]')).toBe(true);
    expect(await page.$eval('#qr', (img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await page.$eval('body', (body) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(body).display)).toBe('flex');

    // Countdown: H:MM:SS below 15 minutes, and it moves.
    const first = await page.textContent('#countdown');
    expect(first).toMatch(/^0:1[45]:\d\d$/);
    await page.waitForFunction((before) => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('countdown')?.textContent !== before, first, { timeout: 5000 });

    // A partial payment shows up without a reload.
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: 'browsertx1', index: 0, amount: '0.2', confirmations: 2, to: { slug: request.slug } });
    await page.waitForSelector('#status[data-status="partial"]', { timeout: 15_000 });
    expect(await page.textContent('#status')).toBe('Partially paid');
    expect(await page.textContent('#amount-outstanding')).toBe('0.3');
    expect(await page.textContent('#amount-paid')).toBe('0.2');

    // The rest: paid, still the same document, then the navigation to redirect_url.
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: 'browsertx2', index: 0, amount: '0.3', confirmations: 2, to: { slug: request.slug } });
    await page.waitForSelector('#status[data-status="paid"]', { timeout: 15_000 });
    expect(await page.textContent('#status')).toBe('Paid');
    expect(mainFrameNavigations).toEqual([pageUrl]);
    await page.waitForURL(REDIRECT_URL, { timeout: 15_000 });
    expect(redirectRequests).toEqual([REDIRECT_URL]);
    expect(await page.textContent('p')).toBe('Back at the shop');

    expect(pageErrors).toEqual([]);
    expect(consoleMessages.filter((m) => /Content Security Policy|Refused to/i.test(m))).toEqual([]);
    expect(consoleMessages.filter((m) => m.startsWith('error'))).toEqual([]);
    await page.close();
  }, 90_000);

  it('counts down to the deadline and moves a partly paid invoice to expired without a reload', async () => {
    const service = new PaymentRequestService(h.orm.em.fork());
    const request = await createRequest(service, { accountId, apiKeyId: 0 }, { asset_id: 3, title: 'Short window', amount: '2', ttl_minutes: 5 });
    await new PaymentService(h.orm.em.fork()).record({ chain: 'litecoin', txid: 'browsertx3', index: 0, amount: '0.5', confirmations: 6, to: { slug: request.slug } });
    // The shortest ttl is a minute; the deadline is pulled in to a few seconds from now directly in the table so the
    // browser sees the real clock cross it (the stored status stays partial: the deadline is applied at read time).
    const deadline = new Date(Date.now() + 6000);
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: request.id }, { expiresAt: deadline });

    const page: Page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const mainFrameNavigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) mainFrameNavigations.push(frame.url());
    });
    const pageUrl = `${h.service.url}/pay/${request.slug}`;
    expect((await page.goto(pageUrl, { waitUntil: 'load' }))?.status()).toBe(200);
    expect(await page.textContent('#status')).toBe('Partially paid');
    expect(await page.isVisible('#pay')).toBe(true);
    expect(await page.textContent('#countdown')).toMatch(/^0:00:0[0-6]$/);

    await page.waitForSelector('#status[data-status="expired"]', { timeout: 20_000 });
    expect(await page.textContent('#status')).toBe('Expired');
    expect(await page.textContent('#countdown')).toBe('0:00:00');
    expect(await page.isVisible('#pay')).toBe(false);
    expect(await page.textContent('#amount-paid')).toBe('0.5');
    expect(await page.textContent('#notice')).toBe('This payment request has expired. Please do not send a payment; ask the merchant for a new one.');
    expect(Date.now()).toBeGreaterThanOrEqual(deadline.getTime());
    expect(mainFrameNavigations).toEqual([pageUrl]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);
});
