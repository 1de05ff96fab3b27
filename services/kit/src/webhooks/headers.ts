import type { ServiceName } from '@tributary/workflows';

import { STANDARD_WEBHOOK_HEADERS } from './standard-webhooks.js';

/**
 * How a delivery is signed: `hmac-sha256-hex`, the lowercase hex HMAC-SHA256 of the raw body in the signature header
 * (the bnpl and crypto specs); `standard-webhooks`, Standard Webhooks' webhook-id / webhook-timestamp /
 * webhook-signature over id, attempt time and body (photos, whose spec leaves the scheme open).
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ['hmac-sha256-hex', 'standard-webhooks'] as const;
export type WebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number];
export const DEFAULT_WEBHOOK_SIGNATURE_SCHEME: WebhookSignatureScheme = 'hmac-sha256-hex';

export interface WebhookHeaderNames {
  /** Header carrying the event name. */
  event: string;
  /** Header carrying the signature. */
  signature: string;
  /** How the signature is made (default `hmac-sha256-hex`). */
  scheme?: WebhookSignatureScheme;
}

/** Header names fixed by each service's spec (photos': decided, see its README). */
export const WEBHOOK_HEADER_NAMES = {
  bnpl: { event: 'X-Service-Event', signature: 'X-Service-Signature' },
  crypto: { event: 'X-Gateway-Event', signature: 'X-Gateway-Signature' },
  photos: { event: 'webhook-event', signature: STANDARD_WEBHOOK_HEADERS.signature, scheme: 'standard-webhooks' },
} as const satisfies Record<ServiceName, WebhookHeaderNames>;
