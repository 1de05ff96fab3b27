// The hosted payer page GET /pay/{slug} over real HTTP against real PostgreSQL: escaping, public fields only, the
// security headers, the 404s (HTML for people, the API's JSON for Accept: application/json), the QR code and the
// wallet URI builder (BIP21 / EIP-681) as a pure function with exact strings.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVM_CHAIN_IDS, HOSTED_PAGE_CONTENT_SECURITY_POLICY, paymentUri } from '../src/modules/hosted-page/index.js';
import { PaymentRequest, PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { Amount } from '../src/money/index.js';
import { createMerchant, createRequest, startHarness, type Harness } from './helpers.js';

describe('paymentUri (QR contents)', () => {
  const btc = 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
  const eth = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
  const ltc = 'tltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';

  it('BIP21 for bitcoin and litecoin with the outstanding amount in whole coins, plain decimal', () => {
    expect(paymentUri({ network: 'testnet', chain: 'bitcoin', address: btc, amountOutstanding: '0.00050000' })).toBe(`bitcoin:${btc}?amount=0.0005`);
    expect(paymentUri({ network: 'testnet', chain: 'bitcoin', address: btc, amountOutstanding: '21' })).toBe(`bitcoin:${btc}?amount=21`);
    expect(paymentUri({ network: 'testnet', chain: 'bitcoin', address: btc, amountOutstanding: '0.00000001' })).toBe(`bitcoin:${btc}?amount=0.00000001`);
    expect(paymentUri({ network: 'testnet', chain: 'litecoin', address: ltc, amountOutstanding: '1.25' })).toBe(`litecoin:${ltc}?amount=1.25`);
  });

  it('EIP-681 for ethereum (Sepolia) and polygon (Amoy) with the chain id and the value as an integer in wei', () => {
    expect(EVM_CHAIN_IDS).toEqual({ testnet: { ethereum: 11155111, polygon: 80002 }, regtest: { ethereum: 31337, polygon: 31338 }, mainnet: { ethereum: 1, polygon: 137 } });
    expect(paymentUri({ network: 'testnet', chain: 'ethereum', address: eth, amountOutstanding: '1.5' })).toBe(`ethereum:${eth}@11155111?value=1500000000000000000`);
    expect(paymentUri({ network: 'testnet', chain: 'polygon', address: eth, amountOutstanding: '0.000000000000000001' })).toBe(`ethereum:${eth}@80002?value=1`);
    // Beyond a double's 15-17 significant digits: exact.
    expect(paymentUri({ network: 'testnet', chain: 'ethereum', address: eth, amountOutstanding: Amount.parse('123456789.123456789123456789') })).toBe(
      `ethereum:${eth}@11155111?value=123456789123456789123456789`,
    );
  });

  it('no amount on a donation link or when nothing is outstanding', () => {
    expect(paymentUri({ network: 'testnet', chain: 'bitcoin', address: btc, amountOutstanding: null })).toBe(`bitcoin:${btc}`);
    expect(paymentUri({ network: 'testnet', chain: 'litecoin', address: ltc, amountOutstanding: '0' })).toBe(`litecoin:${ltc}`);
    expect(paymentUri({ network: 'testnet', chain: 'polygon', address: eth, amountOutstanding: null })).toBe(`ethereum:${eth}@80002`);
    expect(paymentUri({ network: 'testnet', chain: 'ethereum', address: eth, amountOutstanding: '0' })).toBe(`ethereum:${eth}@11155111`);
  });
});

describe('GET /pay/{slug}', () => {
  let h: Harness;
  let accountId: number;
  const principal = () => ({ accountId, apiKeyId: 0 });
  const requests = () => new PaymentRequestService(h.orm.em.fork());
  let tx = 0;
  const pay = (slug: string, amount: string, chain: 'bitcoin' | 'ethereum' = 'bitcoin') =>
    new PaymentService(h.orm.em.fork()).record({ chain, txid: `hosted${(tx += 1)}`, index: 0, amount, confirmations: 100, to: { slug } });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.service.url}${path}`, { headers, redirect: 'manual' });

  beforeAll(async () => {
    h = await startHarness();
    accountId = (await createMerchant(h, 'Hosted page merchant')).accountId;
  });
  afterAll(async () => {
    await h?.close();
  });

  const hostile = '<script>alert("t")</script>';
  let invoice: PaymentRequest;
  beforeAll(async () => {
    invoice = await createRequest(requests(), principal(), {
      asset_id: 1,
      title: hostile,
      description: `Order "5" & <b>bold</b> 'quoted'`,
      amount: '0.5',
      reference: 'SECRET-MERCHANT-REF-42',
      redirect_url: 'https://93.184.216.34/thanks?a=1&b=2',
      ttl_minutes: 30,
    });
  });

  it('renders the request as text with the strict security headers', async () => {
    const response = await get(`/pay/${invoice.slug}`, { accept: 'text/html' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('content-security-policy')).toBe(HOSTED_PAGE_CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<h1 id="title">&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;</h1>');
    expect(html).toContain('<title>Pay: &lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;</title>');
    expect(html).toContain('Order &quot;5&quot; &amp; &lt;b&gt;bold&lt;/b&gt; &#39;quoted&#39;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold');
    expect(html).toContain('href="https://93.184.216.34/thanks?a=1&amp;b=2"');
    // Readable without JavaScript: amount, asset, address, status and deadline are in the document as text.
    expect(html).toContain('<span id="amount-outstanding">0.5</span> <span class="asset">BTC</span>');
    expect(html).toContain(`<code id="address">${invoice.address}</code>`);
    expect(html).toContain('<strong id="status" data-status="pending">Awaiting payment</strong>');
    const expiresAt = invoice.expiresAt!.toISOString();
    expect(html).toContain(`<time id="expires-at" datetime="${expiresAt}">${expiresAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>`);
    expect(html).toMatch(/<span id="countdown">0:(29:[0-5]\d|30:00)<\/span>/);
    expect(html).toContain(`<code id="payment-uri">bitcoin:${invoice.address}?amount=0.5</code>`);
    expect(html).toContain(`<img id="qr" src="/pay/${invoice.slug}/qr.svg"`);
    // No inline code or style: every script is a same-origin file.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/pay-assets/hosted-page.js">']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it("never shows the merchant's reference or other merchant-only fields", async () => {
    const html = await (await get(`/pay/${invoice.slug}`)).text();
    expect(html).not.toContain('SECRET-MERCHANT-REF-42');
    expect(html).not.toContain('Hosted page merchant');
    expect(html).not.toContain(`/payment-requests/${invoice.id}`);
  });

  it('serves the QR code as a same-origin SVG without style attributes', async () => {
    const response = await get(`/pay/${invoice.slug}/qr.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await response.text();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/style|<script/i);
  });

  it('serves the client script and stylesheet with nosniff, and nothing else from the asset path', async () => {
    const js = await get('/pay-assets/hosted-page.js');
    expect({ status: js.status, type: js.headers.get('content-type'), nosniff: js.headers.get('x-content-type-options') }).toEqual({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      nosniff: 'nosniff',
    });
    expect(await js.text()).toContain("fetch('/api/pay/'");
    const css = await get('/pay-assets/hosted-page.css');
    expect({ status: css.status, type: css.headers.get('content-type') }).toEqual({ status: 200, type: 'text/css; charset=utf-8' });
    expect((await get('/pay-assets/hosted-page.routes.ts')).status).toBe(404);
    expect((await get('/pay-assets/..%2Fhosted-page.routes.ts')).status).toBe(404);
  });

  it('shows what is left after a partial payment, and the QR URI holds the new outstanding amount', async () => {
    const request = await createRequest(requests(), principal(), { asset_id: 2, title: 'ETH order', amount: '2' });
    await pay(request.slug, '0.75', 'ethereum');
    const html = await (await get(`/pay/${request.slug}`)).text();
    expect(html).toContain('<strong id="status" data-status="partial">Partially paid</strong>');
    expect(html).toContain('<span id="amount-outstanding">1.25</span> <span class="asset">ETH</span>');
    expect(html).toContain('<span id="amount-paid">0.75</span> ETH');
    expect(html).toContain(`<code id="payment-uri">ethereum:${request.address}@11155111?value=1250000000000000000</code>`);
  });

  it('a paid request shows Paid, hides the payment block and links back to redirect_url', async () => {
    const request = await createRequest(requests(), principal(), { asset_id: 1, title: 'Paid order', amount: '0.1', redirect_url: 'https://93.184.216.34/done' });
    await pay(request.slug, '0.1');
    const html = await (await get(`/pay/${request.slug}`)).text();
    expect(html).toContain('<strong id="status" data-status="paid">Paid</strong>');
    expect(html).toContain('<section id="pay" hidden>');
    expect(html).toContain('<p id="return" class="return"><a id="redirect-link" href="https://93.184.216.34/done"');
  });

  it('past its deadline a pending or partial invoice renders as expired from the server, before any workflow ran', async () => {
    const pendingInvoice = await createRequest(requests(), principal(), { asset_id: 1, title: 'Late order', amount: '0.4', ttl_minutes: 5 });
    const partialInvoice = await createRequest(requests(), principal(), { asset_id: 1, title: 'Half paid order', amount: '0.4', ttl_minutes: 5 });
    await pay(partialInvoice.slug, '0.1');
    // The deadline moved into the past directly in the table: the stored status stays pending/partial, so what the
    // page shows is the deadline applied at read time (the spec's "reports expired even before the sweep").
    const past = new Date(Date.now() - 1000);
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: { $in: [pendingInvoice.id, partialInvoice.id] } }, { expiresAt: past });
    expect((await h.orm.em.fork().findOneOrFail(PaymentRequest, pendingInvoice.id)).status).toBe('pending');

    for (const [request, paid, outstanding] of [[pendingInvoice, '0', '0.4'], [partialInvoice, '0.1', '0.3']] as const) {
      const response = await get(`/pay/${request.slug}`, { accept: 'text/html' });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<div id="payment" data-slug="' + request.slug + '" data-status="expired" data-type="invoice"');
      expect(html).toContain('<strong id="status" data-status="expired">Expired</strong>');
      expect(html).toContain('<section id="pay" hidden>');
      expect(html).toContain('<span id="countdown">0:00:00</span>');
      expect(html).toContain(`<span id="amount-paid">${paid}</span>`);
      expect(html).toContain(`<span id="amount-outstanding">${outstanding}</span>`);
      expect(html).toContain(
        '<p id="notice" class="notice" role="status" aria-live="polite">This payment request has expired. Please do not send a payment; ask the merchant for a new one.</p>',
      );
    }
  });

  it('an open invoice carries no closing notice; a paid one says so without JavaScript', async () => {
    const open = await createRequest(requests(), principal(), { asset_id: 1, title: 'Open order', amount: '0.2' });
    expect(await (await get(`/pay/${open.slug}`)).text()).toContain('<p id="notice" class="notice" role="status" aria-live="polite"></p>');
    await pay(open.slug, '0.3');
    const html = await (await get(`/pay/${open.slug}`)).text();
    expect(html).toContain('<strong id="status" data-status="overpaid">Paid (overpaid)</strong>');
    expect(html).toContain('<p id="notice" class="notice" role="status" aria-live="polite">Payment received. Thank you.</p>');
  });

  it('a donation link shows "any amount", no deadline and a URI without amount', async () => {
    const request = await createRequest(requests(), principal(), { type: 'donation', asset_id: 4, title: 'Tip jar' });
    const html = await (await get(`/pay/${request.slug}`)).text();
    expect(html).toContain('Any amount of <span class="asset">MATIC</span>');
    expect(html).not.toContain('id="countdown"');
    expect(html).toContain(`<code id="payment-uri">ethereum:${request.address}@80002</code>`);
  });

  it('404 page for an unknown or cancelled slug; the JSON 404 with Accept: application/json', async () => {
    const cancelled = await createRequest(requests(), principal(), { asset_id: 3, title: 'to cancel', amount: '1' });
    await requests().cancel(principal(), cancelled.id);
    for (const slug of ['Zz0000000000000000000000', cancelled.slug, 'not-a-slug']) {
      const page = await get(`/pay/${slug}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(HOSTED_PAGE_CONTENT_SECURITY_POLICY);
      const html = await page.text();
      expect(html).toContain('<h1>Payment request not found</h1>');
      expect(html).not.toContain('to cancel');
      const json = await get(`/pay/${slug}`, { accept: 'application/json' });
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ message: 'Not found.' });
      expect((await get(`/pay/${slug}/qr.svg`)).status).toBe(404);
    }
  });
});
