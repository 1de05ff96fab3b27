// The capability tokens in crypto's paths (kit http/capabilities.ts): a payment request's slug is the capability of
// its payer view (spec: "the random, non-sequential slug is the capability"), so the access log and the traces keep
// only its first characters (`Ab3d…`) on the public endpoint, the hosted page and its QR code. The merchant routes
// name a request by its internal integer id, which opens nothing.
import type { CapabilityToken } from '@tributary/kit';
import { HOSTED_PAGE_SLUG_ROUTES } from './modules/hosted-page/index.js';
import { SLUG_FORMAT, paymentRequestApi } from './modules/payment-requests/index.js';

export const CRYPTO_CAPABILITIES: readonly CapabilityToken[] = [
  {
    name: 'payment request slug',
    format: SLUG_FORMAT,
    routes: [paymentRequestApi.public.path, ...HOSTED_PAGE_SLUG_ROUTES].map((path) => ({ path, param: 'slug' })),
  },
];
