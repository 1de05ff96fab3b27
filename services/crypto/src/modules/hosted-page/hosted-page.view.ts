// Server-rendered HTML of the hosted payer page: everything a payer needs is text in the document (readable without
// JavaScript); the client script only adds the live countdown, live status, copy buttons and the redirect.
// Every value from the request (title, description, address, URLs) goes through escapeHtml; no inline script or style.
import { escapeHtml } from '@tributary/kit';
import type { PublicPaymentRequestBody } from '../payment-requests/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';
import { HOSTED_PAGE_ASSETS } from './hosted-page.assets.js';

/** Human label of each status (the machine value is on `data-status`). */
export const STATUS_LABELS: Record<string, string> = {
  pending: 'Awaiting payment',
  partial: 'Partially paid',
  paid: 'Paid',
  overpaid: 'Paid (overpaid)',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/**
 * The sentence under the status for a request that no longer takes a payment, so a reader without JavaScript is told
 * as plainly as one with it (the client script writes the same sentences when the status changes live).
 */
export function closingNotice(body: Pick<PublicPaymentRequestBody, 'type' | 'status'>): string {
  if (body.status === 'paid' || body.status === 'overpaid') return 'Payment received. Thank you.';
  if (body.status === 'expired') return 'This payment request has expired. Please do not send a payment; ask the merchant for a new one.';
  return '';
}

/** How the page names each network. */
export const NETWORK_LABELS: Record<ChainNetwork, string> = { testnet: 'test network', regtest: 'local regtest chain', mainnet: 'mainnet' };

/** What the page says instead of asking for a payment when the gateway has moved to another network since the request. */
export function otherNetworkNotice(madeOn: ChainNetwork, current: ChainNetwork): string {
  return `This payment request was made on the ${NETWORK_LABELS[madeOn]}, and this gateway now runs on the ${NETWORK_LABELS[current]}: a payment would not be seen. Please do not send one; ask the merchant for a new payment request.`;
}

/** Statuses in which the page still asks for a payment (a donation link always does, it never expires). */
export function acceptsPayment(body: Pick<PublicPaymentRequestBody, 'type' | 'status'>): boolean {
  return body.type === 'donation' ? body.status !== 'cancelled' : body.status === 'pending' || body.status === 'partial';
}

/** `H:MM:SS` left until `expiresAt` (0:00:00 once past); the client script renders the same format every second. */
export function formatRemaining(expiresAt: Date, now: Date): string {
  const total = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(total / 3600)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

function layout(title: string, body: string, extra: { script?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${HOSTED_PAGE_ASSETS}/hosted-page.css">
</head>
<body>
<main class="card">
${body}
</main>
${extra.script ? `<script src="${HOSTED_PAGE_ASSETS}/hosted-page.js"></script>\n` : ''}</body>
</html>
`;
}

export interface HostedPageModel {
  request: PublicPaymentRequestBody;
  /** The network the request was made on, and the one the gateway runs on now (they differ after a switch). */
  network: { madeOn: ChainNetwork; current: ChainNetwork };
  /** Same-origin URL of the QR code image. */
  qrPath: string;
  /** The URI inside the QR code (also offered as an "open in wallet" link). */
  paymentUri: string;
  now: Date;
}

export function renderHostedPage({ request: r, network, qrPath, paymentUri, now }: HostedPageModel): string {
  const e = escapeHtml;
  const otherNetwork = network.madeOn !== network.current;
  const open = acceptsPayment(r);
  const settled = r.status === 'paid' || r.status === 'overpaid';
  const amountBlock =
    r.amount_requested === null
      ? `<p class="amount">Any amount of <span class="asset">${e(r.asset)}</span></p>`
      : `<dl class="amounts">
<dt>Amount due</dt><dd><span id="amount-outstanding">${e(r.amount_outstanding ?? '0')}</span> <span class="asset">${e(r.asset)}</span> <button type="button" class="copy" data-copy-target="amount-outstanding" hidden>Copy amount</button></dd>
<dt>Requested</dt><dd><span id="amount-requested">${e(r.amount_requested)}</span> ${e(r.asset)}</dd>
<dt>Received</dt><dd><span id="amount-paid">${e(r.amount_paid)}</span> ${e(r.asset)}</dd>
</dl>`;
  const deadline =
    r.expires_at === null
      ? ''
      : `<p class="deadline">Pay before <time id="expires-at" datetime="${e(r.expires_at)}">${e(r.expires_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'))}</time>. Time left: <span id="countdown">${e(formatRemaining(new Date(r.expires_at), now))}</span></p>`;
  const redirect =
    r.redirect_url === null ? '' : `<p id="return" class="return"${settled ? '' : ' hidden'}><a id="redirect-link" href="${e(r.redirect_url)}" rel="noreferrer">Return to the merchant</a></p>`;
  // After a network switch the address is not watched any more: no address, QR or URI at all (the polling script
  // only toggles a section that exists).
  const paySection = `<section id="pay"${open ? '' : ' hidden'}>
<p class="qr"><a href="${e(paymentUri)}"><img id="qr" src="${e(qrPath)}" width="240" height="240" alt="QR code: ${e(paymentUri)}"></a></p>
<p class="address-line">Send to address:<br><code id="address">${e(r.address)}</code> <button type="button" class="copy" data-copy-target="address" hidden>Copy address</button></p>
<p class="uri">Payment URI: <code id="payment-uri">${e(paymentUri)}</code></p>
</section>`;
  const body = `<div id="payment" data-slug="${e(r.id)}" data-status="${e(r.status)}" data-type="${e(r.type)}"${r.expires_at ? ` data-expires-at="${e(r.expires_at)}"` : ''}>
<h1 id="title">${e(r.title)}</h1>
${r.description === null ? '' : `<p id="description" class="description">${e(r.description)}</p>`}
<p class="status">Status: <strong id="status" data-status="${e(r.status)}">${e(STATUS_LABELS[r.status] ?? r.status)}</strong></p>
${amountBlock}
<p class="network">Network: ${e(r.chain)} (${e(NETWORK_LABELS[network.madeOn])}), asset ${e(r.asset)}</p>
${deadline}
${otherNetwork ? '' : paySection}
${redirect}
<p id="notice" class="notice" role="status" aria-live="polite">${e(otherNetwork ? otherNetworkNotice(network.madeOn, network.current) : closingNotice(r))}</p>
</div>`;
  return layout(`Pay: ${r.title}`, body, { script: true });
}

export function renderNotFoundPage(): string {
  return layout('Payment request not found', `<h1>Payment request not found</h1>
<p>This payment link does not exist or has been cancelled. Please ask the merchant for a new one.</p>`);
}
