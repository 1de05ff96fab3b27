// The public page of a payment link (its public_url): the link's title and fixed price and a button that starts a
// checkout for it, or a clear "sold out" when it is no longer redeemable. Server-rendered with the kit's escaping `html`
// template and the checkout's stylesheet; no script at all.
import { html, type SafeHtml } from '@tributary/kit';
import { CHECKOUT_ASSETS_PREFIX, PAYMENT_LINK_PAGE_PREFIX } from '../../api-paths.js';
import { formatMoney } from '../checkout/index.js';

/** What the page shows of a link. */
export interface PaymentLinkPageModel {
  slug: string;
  title: string;
  merchantName: string;
  amountCents: number;
  currency: string;
  livemode: boolean;
  isRedeemable: boolean;
}

export const PAYMENT_LINK_PAGE_TEXT = {
  soldOutHeadline: 'This offer is sold out',
  soldOut: 'This payment link has reached its limit of purchases.',
  start: 'Pay in installments',
  doneHeadline: 'Thank you',
  done: 'Your payment plan is confirmed. The merchant has been told; you will get their confirmation separately.',
  notFoundHeadline: 'Payment link not found',
  notFound: 'This payment link does not exist or was removed by the merchant.',
  busyHeadline: 'Please try again in a moment',
  busy: 'Many checkouts are starting on this payment link right now. Wait a minute, then press the button again.',
} as const;

export function paymentLinkPagePath(slug: string): string {
  return `${PAYMENT_LINK_PAGE_PREFIX}/${slug}`;
}

/** Where checkout sends a shopper after a loan booked through the link. */
export function paymentLinkDonePath(slug: string): string {
  return `${PAYMENT_LINK_PAGE_PREFIX}/${slug}/done`;
}

function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${CHECKOUT_ASSETS_PREFIX}/checkout.css">
</head>
<body class="standalone">
${body}
</body>
</html>
`.value;
}

function summary(link: PaymentLinkPageModel): SafeHtml {
  return html`<header class="summary">
<p class="eyebrow">${link.merchantName}</p>
<h1 id="title">${link.title}</h1>
<p class="amount"><span class="amount-label">Price</span> <strong id="amount" data-amount-cents="${link.amountCents}" data-currency="${link.currency}">${formatMoney(link.amountCents, link.currency)}</strong></p>
${link.livemode ? '' : html`<p id="test-mode" class="test-mode">Test mode: no real loan is made and no money moves.</p>`}
</header>`;
}

export function renderPaymentLinkPage(link: PaymentLinkPageModel): string {
  const action = link.isRedeemable
    ? html`<form method="post" action="${paymentLinkPagePath(link.slug)}"><button type="submit" id="start" class="primary">${PAYMENT_LINK_PAGE_TEXT.start}</button></form>`
    : html`<section class="closed" aria-labelledby="headline"><h2 id="headline">${PAYMENT_LINK_PAGE_TEXT.soldOutHeadline}</h2><p id="sold-out">${PAYMENT_LINK_PAGE_TEXT.soldOut}</p></section>`;
  const body = html`<main id="payment-link" class="checkout" data-redeemable="${String(link.isRedeemable)}">
${summary(link)}
${action}
</main>`;
  return layout(`${link.title} · ${link.merchantName}`, body);
}

export function renderPaymentLinkDonePage(link: PaymentLinkPageModel): string {
  const body = html`<main id="payment-link" class="checkout" data-status="done">
${summary(link)}
<section class="completed" aria-labelledby="headline"><h2 id="headline">${PAYMENT_LINK_PAGE_TEXT.doneHeadline}</h2><p id="done">${PAYMENT_LINK_PAGE_TEXT.done}</p></section>
</main>`;
  return layout(`${PAYMENT_LINK_PAGE_TEXT.doneHeadline} · ${link.merchantName}`, body);
}

/** The answer to a start refused by a limit (429): the link is fine, the shopper retries shortly. */
export function renderPaymentLinkBusyPage(): string {
  const body = html`<main id="payment-link" class="checkout" data-status="busy">
<section class="closed" aria-labelledby="headline"><h1 id="headline">${PAYMENT_LINK_PAGE_TEXT.busyHeadline}</h1><p>${PAYMENT_LINK_PAGE_TEXT.busy}</p></section>
</main>`;
  return layout(PAYMENT_LINK_PAGE_TEXT.busyHeadline, body);
}

export function renderPaymentLinkNotFoundPage(): string {
  const body = html`<main id="payment-link" class="checkout" data-status="not_found">
<section class="closed" aria-labelledby="headline"><h1 id="headline">${PAYMENT_LINK_PAGE_TEXT.notFoundHeadline}</h1><p>${PAYMENT_LINK_PAGE_TEXT.notFound}</p></section>
</main>`;
  return layout(PAYMENT_LINK_PAGE_TEXT.notFoundHeadline, body);
}
