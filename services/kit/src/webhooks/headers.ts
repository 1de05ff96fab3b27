import type { ServiceName } from '@tributary/workflows';

export interface WebhookHeaderNames {
  /** Header carrying the event name. */
  event: string;
  /** Header carrying the lowercase hex HMAC-SHA256 of the raw body. */
  signature: string;
}

/** Header names fixed by each service's spec. */
export const WEBHOOK_HEADER_NAMES = {
  bnpl: { event: 'X-Service-Event', signature: 'X-Service-Signature' },
  crypto: { event: 'X-Gateway-Event', signature: 'X-Gateway-Signature' },
} as const satisfies Partial<Record<ServiceName, WebhookHeaderNames>>;
