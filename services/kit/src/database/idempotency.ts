// Idempotent creates (the `Idempotency-Key` request header). A client that retries a create after a timeout must not
// end up with two records: with the same key and the same (validated, normalised) body, the retry gets what the first
// attempt created; the same key with another body is refused on the key. Keys are scoped by the caller (an account, a
// merchant) and kept for the life of the record, so an order id works as a key. Services store the key and the body's
// fingerprint on the record, under a unique (owner, key) constraint that backs the advisory lock below.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, type FieldErrors } from '../errors/index.js';

/** The header (REST) and the field name used in error bodies for REST and GraphQL alike. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The response header of a create answered from an earlier attempt (value `true`). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
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
 * SHA-256 (hex) of a create's validated, normalised fields, keyed by their wire names and hashed in sorted key order,
 * so the order a client sent them in never matters. Stored fingerprints must stay comparable across releases: keep
 * the names and the normalisation stable.
 */
export function idempotencyFingerprint(fields: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.keys(fields).sort().map((name) => [name, fields[name]]));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** The refusal for a key reused with a different body (422 on the key, code `idempotency_key_reused`). */
export function idempotencyKeyReused(): BusinessRuleError {
  return new BusinessRuleError(IDEMPOTENCY_MESSAGES.reused, { [IDEMPOTENCY_KEY_HEADER]: [IDEMPOTENCY_MESSAGES.reused] }, { code: 'idempotency_key_reused' });
}

/**
 * Serialises creates that carry the same key in the same scope until the transaction ends, so a concurrent retry
 * waits for the first attempt and then finds its record (the unique constraint is the backstop). `scope` names the
 * service, the resource and the owner, e.g. `crypto:payment-request:<account id>`.
 */
export async function lockIdempotencyKey(tx: EntityManager, scope: string, key: string): Promise<void> {
  await tx.getConnection().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${scope}:${key}`], 'all', tx.getTransactionContext());
}
