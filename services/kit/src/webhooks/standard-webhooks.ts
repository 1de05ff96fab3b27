// Standard Webhooks signatures (https://www.standardwebhooks.com): the scheme of services whose spec leaves the
// signature open (photos). Three headers: `webhook-id` (the message id, the same on every retry of it),
// `webhook-timestamp` (unix seconds of the attempt, so a receiver can refuse a replayed old message) and
// `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, space-separated when several secrets
// sign). The secret is `whsec_` + base64 of the key bytes; the HMAC key is those bytes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PayloadBytes } from './signature.js';

export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const STANDARD_WEBHOOK_SECRET_PREFIX = 'whsec_';
/** 32 random bytes: `whsec_` + 44 base64 characters. */
export const STANDARD_WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** How old (or how far ahead) a message's timestamp may be for `verifyStandardWebhook`, seconds. */
export const STANDARD_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export function generateStandardWebhookSecret(): string {
  return `${STANDARD_WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(STANDARD_WEBHOOK_SECRET_PREFIX)) throw new Error('a Standard Webhooks secret starts with whsec_');
  return Buffer.from(secret.slice(STANDARD_WEBHOOK_SECRET_PREFIX.length), 'base64');
}

const toBuffer = (payload: PayloadBytes): Buffer =>
  typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : Buffer.from(payload);

function hmac(secret: string, messageId: string, timestampSeconds: number, body: PayloadBytes): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestampSeconds}.`).update(toBuffer(body)).digest();
}

/** The three headers of one attempt of message `messageId`, signed at `timestampSeconds`. */
export function standardWebhookHeaders(secret: string, messageId: string, timestampSeconds: number, body: PayloadBytes): Record<string, string> {
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: messageId,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestampSeconds),
    [STANDARD_WEBHOOK_HEADERS.signature]: `v1,${hmac(secret, messageId, timestampSeconds, body).toString('base64')}`,
  };
}

export type StandardWebhookVerdict = { ok: true } | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' };

/**
 * Receiver side: checks the headers against the RAW body with the endpoint's secret, in constant time, and refuses a
 * timestamp outside the tolerance (a replay). `headers` may be Node's lower-cased header object.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: PayloadBytes,
  options: { now?: Date; toleranceSeconds?: number } = {},
): StandardWebhookVerdict {
  const header = (name: string): string | undefined => {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header(STANDARD_WEBHOOK_HEADERS.id);
  const timestamp = header(STANDARD_WEBHOOK_HEADERS.timestamp);
  const signatures = header(STANDARD_WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing_headers' };
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? STANDARD_WEBHOOK_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  const expected = hmac(secret, id, Number(timestamp), body);
  const matches = signatures.split(' ').some((entry) => {
    const [version, encoded] = entry.split(',', 2);
    if (version !== 'v1' || !encoded) return false;
    const given = Buffer.from(encoded, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'bad_signature' };
}
