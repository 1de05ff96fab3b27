// Idempotent creates. A merchant that retries POST /payment-requests after a timeout must not end up with two
// invoices (two receive addresses, a payer who may pay the wrong one): with the same Idempotency-Key (header on REST,
// argument on GraphQL) and the same body, the retry gets the request the first attempt created. Keys are scoped to
// the account and kept for the life of the request, so an order id works as a key. The header rules, the refusal and
// the lock are the kit's (shared with bnpl's widget sessions); the fingerprint's fields are the payment request's.
import { idempotencyFingerprint, lockIdempotencyKey as lockKitIdempotencyKey } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewPaymentRequest } from './payment-request.validation.js';

export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES, idempotencyKeyReused, parseIdempotencyKey } from '@tributary/kit';

/**
 * SHA-256 of the validated, normalised create (defaults applied, amounts canonical), so `"0.50"` and `"0.5"` or an
 * omitted and an explicit default are the same request, while any real difference is a different one. The spec's
 * field names are hashed (sorted): stored fingerprints stay comparable across releases, so keep these names stable.
 */
export function createFingerprint(request: NewPaymentRequest): string {
  return idempotencyFingerprint({
    amount: request.amount?.toString() ?? null,
    asset_id: request.asset.id,
    description: request.description,
    redirect_url: request.redirectUrl,
    reference: request.reference,
    title: request.title,
    ttl_minutes: request.ttlMinutes,
    type: request.type,
    webhook_url: request.webhookUrl,
  });
}

/**
 * Serialises creates that carry the same key for the same account until the transaction ends, so a concurrent retry
 * waits for the first attempt and then finds its request (the unique constraint is the backstop).
 */
export function lockIdempotencyKey(tx: EntityManager, accountId: number, key: string): Promise<void> {
  return lockKitIdempotencyKey(tx, `crypto:payment-request:${accountId}`, key);
}
