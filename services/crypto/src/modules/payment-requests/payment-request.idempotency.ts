// Idempotent creates. A merchant that retries POST /payment-requests after a timeout must not end up with two
// invoices (two receive addresses, a payer who may pay the wrong one): with the same Idempotency-Key (header on REST,
// argument on GraphQL) and the same body, the retry gets the request the first attempt created. Keys are scoped to
// the account and kept for the life of the request, so an order id works as a key.
import { createHash } from 'node:crypto';
import { BusinessRuleError, type FieldErrors } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewPaymentRequest } from './payment-request.validation.js';

/** The header (REST) and the field name used in error bodies for REST and GraphQL alike. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 255;
/** Visible ASCII without spaces, 1 to 255 characters (a UUID, an order id, …). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

export const IDEMPOTENCY_MESSAGES = {
  invalid: `Must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters without spaces.`,
  reused: 'This Idempotency-Key was already used for a request with a different body.',
} as const;

/**
 * The key (undefined: the create is not idempotent) or, for a malformed one, its field errors, so they are reported
 * in one 422 with the body's problems.
 */
export function parseIdempotencyKey(value: unknown): { key?: string; fields: FieldErrors } {
  if (value === undefined || value === null) return { fields: {} };
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) return { fields: { [IDEMPOTENCY_KEY_HEADER]: [IDEMPOTENCY_MESSAGES.invalid] } };
  return { key: value, fields: {} };
}

/**
 * SHA-256 of the validated, normalised create (defaults applied, amounts canonical), so `"0.50"` and `"0.5"` or an
 * omitted and an explicit default are the same request, while any real difference is a different one. The spec's
 * field names, sorted, are hashed: stored fingerprints stay comparable across releases, so keep this text stable.
 */
export function createFingerprint(request: NewPaymentRequest): string {
  const fields: Record<string, unknown> = {
    amount: request.amount?.toString() ?? null,
    asset_id: request.asset.id,
    description: request.description,
    redirect_url: request.redirectUrl,
    reference: request.reference,
    title: request.title,
    ttl_minutes: request.ttlMinutes,
    type: request.type,
    webhook_url: request.webhookUrl,
  };
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The refusal for a key reused with a different body (422, the spec's status for a refused create). */
export function idempotencyKeyReused(): BusinessRuleError {
  return new BusinessRuleError(IDEMPOTENCY_MESSAGES.reused, { [IDEMPOTENCY_KEY_HEADER]: [IDEMPOTENCY_MESSAGES.reused] }, { code: 'idempotency_key_reused' });
}

/**
 * Serialises creates that carry the same key for the same account until the transaction ends, so a concurrent retry
 * waits for the first attempt and then finds its request (the unique constraint is the backstop).
 */
export async function lockIdempotencyKey(tx: EntityManager, accountId: number, key: string): Promise<void> {
  const lockName = `crypto:payment-request:${accountId}:${key}`;
  await tx.getConnection().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [lockName], 'all', tx.getTransactionContext());
}
