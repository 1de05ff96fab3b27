// The hosted payer page /pay/{slug}: server-rendered HTML, a QR code of the payment URI, live status in the browser.
export { HOSTED_PAGE_ASSETS } from './hosted-page.assets.js';
export { HOSTED_PAGE_CONTENT_SECURITY_POLICY, HOSTED_PAGE_SLUG_ROUTES, hostedPageRoutes } from './hosted-page.routes.js';
export { STATUS_LABELS, formatRemaining, renderHostedPage, renderNotFoundPage } from './hosted-page.view.js';
export { EVM_CHAIN_IDS, paymentUri, type PaymentUriInput } from './payment-uri.js';
