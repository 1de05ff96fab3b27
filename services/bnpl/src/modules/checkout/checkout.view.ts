// Server-rendered HTML of the checkout pages: complete without JavaScript (the form posts, links navigate); the
// same-origin script only adds what needs a parent window (messages to widget.js). Every value goes through `html`,
// which escapes it; there is no inline script or style (the CSP allows neither).
import { CHECKOUT_ASSETS_PREFIX, CHECKOUT_PAGE_PREFIX } from '../../api-paths.js';
import type { Loan } from '../loans/index.js';
import { loanFeeBps, type InstallmentPlan } from '../plans/index.js';
import { EMBED_QUERY_PARAM, type EmbedMode } from './checkout.embedding.js';
import { formatBps, formatDueDate, formatMoney } from './checkout-format.js';
import type { CheckoutPage, CheckoutSummary, ClosedPage, ClosedStatus, CompletedPage, FormPage, PlanOffer } from './checkout.pages.js';
import { SHOPPER_FIELDS, TERMS_ACCEPTED } from './checkout.validation.js';
import { html, safeHref, type SafeHtml } from '@tributary/kit';

export interface RenderOptions {
  /** How the page was opened (links leave the frame with target=_top when embedded). */
  embed: EmbedMode;
  /** success_url's origin: where the page's script may post messages (null: nowhere). */
  messageTarget: string | null;
  now: Date;
}

/** The path of a session's page (the form's action), keeping the embed mode. */
export function checkoutPath(token: string, embed: EmbedMode): string {
  const path = `${CHECKOUT_PAGE_PREFIX}/${encodeURIComponent(token)}`;
  return embed ? `${path}?${EMBED_QUERY_PARAM}=${embed}` : path;
}

function layout(title: string, body: SafeHtml, embed: EmbedMode): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${CHECKOUT_ASSETS_PREFIX}/checkout.css">
<script src="${CHECKOUT_ASSETS_PREFIX}/checkout.js" defer></script>
</head>
<body class="${embed ? `embedded embedded-${embed}` : 'standalone'}">
${body}
</body>
</html>
`.value;
}

/** The attributes the page script reads: how it is embedded, where it may post, which session. */
function mainOpen(summary: CheckoutSummary, status: string, options: RenderOptions, extra: SafeHtml | '' = ''): SafeHtml {
  return html`<main id="checkout" class="checkout" data-status="${status}" data-session-token="${summary.token}"${
    options.embed ? html` data-embed="${options.embed}"` : ''
  }${options.messageTarget ? html` data-merchant-origin="${options.messageTarget}"` : ''}${extra}>`;
}

/** A link back to the merchant (leaving the frame when embedded); no link at all for a URL that is not http(s). */
function merchantLink(id: string, url: string, text: string, options: RenderOptions, className = ''): SafeHtml {
  const href = safeHref(url);
  if (href === null) return html``;
  return html`<p class="${['back', className].filter(Boolean).join(' ')}"><a id="${id}" href="${href}" rel="noreferrer"${options.embed ? html` target="_top"` : ''}>${text}</a></p>`;
}

function summaryBlock(s: CheckoutSummary): SafeHtml {
  return html`<header class="summary">
<p class="eyebrow">Checkout</p>
<h1 id="merchant-name">${s.merchantName}</h1>
<p class="amount"><span class="amount-label">Amount</span> <strong id="amount" data-amount-cents="${s.amountCents}" data-currency="${s.currency}">${formatMoney(s.amountCents, s.currency)}</strong></p>
${s.purchaseDescription ? html`<p id="purchase-description" class="description">${s.purchaseDescription}</p>` : ''}
<p class="reference">Order reference: <span id="order-reference">${s.orderReference}</span></p>
${s.livemode ? '' : html`<p id="test-mode" class="test-mode">Test mode: no real loan is made and no money moves.</p>`}
</header>`;
}

/** `4 payments every 2 weeks` / `6 monthly payments`. */
export function planCadence(plan: InstallmentPlan): string {
  const { unit, count } = plan.interval;
  if (unit === 'month') return count === 1 ? `${plan.installmentCount} monthly payments` : `${plan.installmentCount} payments every ${count} months`;
  if (count % 7 === 0) return `${plan.installmentCount} payments every ${count / 7 === 1 ? 'week' : `${count / 7} weeks`}`;
  return `${plan.installmentCount} payments every ${count} days`;
}

/** The plan's fee as the shopper pays it in the session's mode: none on an interest-free plan, none in test mode. */
export function planFeeText(plan: InstallmentPlan, feeCents: number, currency: string, livemode: boolean): string {
  if (plan.feeBps === 0) return 'no fee, interest-free';
  if (loanFeeBps(plan, livemode) === 0) return 'no fee in test mode';
  return `fee ${formatMoney(feeCents, currency)} (${formatBps(plan.feeBps)} of the amount)`;
}

interface ScheduleRow {
  installmentNumber: number;
  amountCents: number;
  dueDate: string;
}

/** A schedule as a table: every installment with its due date and amount, then the fee and the total. */
function scheduleTable(id: string, caption: string, rows: readonly ScheduleRow[], totals: { feeCents: number; totalCents: number; currency: string }, now: Date): SafeHtml {
  const today = now.toISOString().slice(0, 10);
  const money = (cents: number) => formatMoney(cents, totals.currency);
  return html`<table class="schedule" id="${id}" data-total-cents="${totals.totalCents}" data-fee-cents="${totals.feeCents}">
<caption>${caption}</caption>
<thead><tr><th scope="col">Payment</th><th scope="col">Due</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${rows.map(
  (row) =>
    html`<tr><td>${row.installmentNumber}</td><td><time datetime="${row.dueDate}">${formatDueDate(row.dueDate)}</time>${row.dueDate === today ? ' (today)' : ''}</td><td class="num installment" data-amount-cents="${row.amountCents}" data-due-date="${row.dueDate}">${money(row.amountCents)}</td></tr>\n`,
)}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Fee</th><td class="num fee">${money(totals.feeCents)}</td></tr>
<tr><th scope="row" colspan="2">Total</th><td class="num total">${money(totals.totalCents)}</td></tr>
</tfoot>
</table>`;
}

function fieldError(errors: FormPage['errors'], field: string): SafeHtml {
  const message = errors[field]?.[0];
  return message ? html`<p class="field-error" id="${field}-error">${message}</p>` : html``;
}

/** aria-invalid and aria-describedby for a field (its hint first, then its error). */
function fieldAria(errors: FormPage['errors'], field: string, hintId?: string): SafeHtml {
  const invalid = Boolean(errors[field]?.length);
  const describedBy = [hintId, invalid ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return html`${invalid ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
}

const planInputId = (plan: InstallmentPlan) => `plan-${plan.id}`;

function planOption(offer: PlanOffer, page: FormPage, now: Date): SafeHtml {
  const { plan, schedule } = offer;
  const id = planInputId(plan);
  const currency = page.summary.currency;
  return html`<div class="plan">
<input type="radio" id="${id}" name="${SHOPPER_FIELDS.plan}" value="${plan.id}"${page.values.planId === plan.id ? ' checked' : ''} aria-describedby="${id}-schedule">
<label for="${id}"><span class="plan-name">${plan.name}</span> <span class="plan-terms">${planCadence(plan)}; ${planFeeText(plan, schedule.feeCents, currency, page.summary.livemode)}; total ${formatMoney(schedule.totalCents, currency)}</span></label>
${scheduleTable(`${id}-schedule`, `${plan.name}: payment schedule`, schedule.installments, { ...schedule, currency }, now)}
</div>
`;
}

/** Every message at the top, each linking to its field (focus moves there first: see checkout.js). */
function errorSummary(page: FormPage): SafeHtml {
  const fieldOrder = [SHOPPER_FIELDS.plan, SHOPPER_FIELDS.email, SHOPPER_FIELDS.phone, SHOPPER_FIELDS.terms];
  const anchor = (field: string) => (field === SHOPPER_FIELDS.plan ? (page.offers[0] ? planInputId(page.offers[0].plan) : 'plans') : field);
  const items = fieldOrder.filter((field) => page.errors[field]?.length).map((field) => html`<li><a href="#${anchor(field)}">${page.errors[field]![0]!}</a></li>`);
  if (items.length === 0) return html``;
  return html`<div id="error-summary" class="error-summary" role="alert" tabindex="-1">
<h2>Please check the form</h2>
<ul>${items}</ul>
</div>`;
}

export function renderFormPage(page: FormPage, options: RenderOptions): string {
  const { summary, values, errors } = page;
  const body = html`${mainOpen(summary, 'eligible', options)}
${summaryBlock(summary)}
${errorSummary(page)}
<form id="checkout-form" method="post" action="${checkoutPath(summary.token, options.embed)}" novalidate>
<fieldset id="plans" class="plans">
<legend>Choose a payment plan</legend>
${fieldError(errors, SHOPPER_FIELDS.plan)}
${page.offers.map((offer) => planOption(offer, page, options.now))}
</fieldset>
<fieldset class="details">
<legend>Your details</legend>
<div class="field">
<label for="${SHOPPER_FIELDS.email}">E-mail</label>
<input type="email" id="${SHOPPER_FIELDS.email}" name="${SHOPPER_FIELDS.email}" autocomplete="email" required maxlength="254" value="${values.email}"${fieldAria(errors, SHOPPER_FIELDS.email)}>
${fieldError(errors, SHOPPER_FIELDS.email)}
</div>
<div class="field">
<label for="${SHOPPER_FIELDS.phone}">Mobile phone (optional)</label>
<p class="hint" id="phone-hint">International format, like +14155550123.</p>
<input type="tel" id="${SHOPPER_FIELDS.phone}" name="${SHOPPER_FIELDS.phone}" autocomplete="tel" maxlength="32" value="${values.phone}"${fieldAria(errors, SHOPPER_FIELDS.phone, 'phone-hint')}>
${fieldError(errors, SHOPPER_FIELDS.phone)}
</div>
</fieldset>
<div class="field terms">
<input type="checkbox" id="${SHOPPER_FIELDS.terms}" name="${SHOPPER_FIELDS.terms}" value="${TERMS_ACCEPTED}" required${values.termsAccepted ? ' checked' : ''}${fieldAria(errors, SHOPPER_FIELDS.terms)}>
<label for="${SHOPPER_FIELDS.terms}">I accept the payment terms: I will pay each installment of the chosen plan on its due date, and ${summary.merchantName} is paid for this purchase by the lender.</label>
${fieldError(errors, SHOPPER_FIELDS.terms)}
</div>
<button type="submit" id="confirm" class="primary">Confirm payment plan</button>
</form>
${merchantLink('cancel-link', summary.cancelUrl, `Cancel and return to ${summary.merchantName}`, options)}
</main>`;
  return layout(`Checkout · ${summary.merchantName}`, body, options.embed);
}

export const CLOSED_TEXT: Record<ClosedStatus, { headline: string; message: string }> = {
  ineligible: { headline: 'Installments are not available', message: 'Paying in installments is not available for this purchase. No loan was made.' },
  expired: { headline: 'This checkout has expired', message: 'This checkout link has expired. No loan was made.' },
  cancelled: { headline: 'This checkout was cancelled', message: 'This checkout was cancelled. No loan was made.' },
  sold_out: { headline: 'This offer is sold out', message: 'The payment link behind this checkout has reached its limit of purchases. No loan was made.' },
};

export function renderClosedPage(page: ClosedPage, options: RenderOptions): string {
  const { summary, status } = page;
  const text = CLOSED_TEXT[status];
  const body = html`${mainOpen(summary, status, options)}
${summaryBlock(summary)}
<section class="closed" aria-labelledby="headline">
<h2 id="headline">${text.headline}</h2>
<p id="closed-message">${text.message} Return to ${summary.merchantName} to choose another way to pay.</p>
</section>
${merchantLink('cancel-link', summary.cancelUrl, `Return to ${summary.merchantName}`, options, 'primary-link')}
</main>`;
  return layout(`${text.headline} · ${summary.merchantName}`, body, options.embed);
}

function loanSchedule(loan: Loan, now: Date): SafeHtml {
  const rows = loan.installments.getItems().map((i) => ({ installmentNumber: i.installmentNumber, amountCents: i.amountCents, dueDate: i.dueDate }));
  return scheduleTable('loan-schedule', 'Your payment schedule', rows, { feeCents: loan.feeCents, totalCents: loan.totalCents, currency: loan.currency }, now);
}

export function renderCompletedPage(page: CompletedPage, options: RenderOptions): string {
  const { summary, loan } = page;
  const success = safeHref(summary.successUrl);
  const data = html` data-loan-id="${loan.id}" data-loan-number="${loan.loanNumber}" data-purchase-reference="${loan.purchaseReference}"${success ? html` data-success-url="${success}"` : ''}`;
  const body = html`${mainOpen(summary, 'authorized', options, data)}
${summaryBlock(summary)}
<section class="completed" aria-labelledby="headline">
<h2 id="headline">Payment plan confirmed</h2>
<p>Your loan number is <strong id="loan-number">${loan.loanNumber}</strong>. ${summary.merchantName} has been told that your purchase is paid.</p>
${loanSchedule(loan, options.now)}
</section>
${merchantLink('continue-link', summary.successUrl, `Continue to ${summary.merchantName}`, options, 'primary-link')}
</main>`;
  return layout(`Payment plan confirmed · ${summary.merchantName}`, body, options.embed);
}

export function renderCheckoutPage(page: CheckoutPage, options: RenderOptions): string {
  if (page.kind === 'form') return renderFormPage(page, options);
  if (page.kind === 'closed') return renderClosedPage(page, options);
  return renderCompletedPage(page, options);
}

export function renderNotFoundPage(): string {
  const body = html`<main id="checkout" class="checkout" data-status="not_found">
<h1 id="headline">Checkout not found</h1>
<p>This checkout link does not exist. Please return to the shop and start checkout again.</p>
</main>`;
  return layout('Checkout not found', body, null);
}
