// Idempotent project creates. A capture app or an office client that retries POST /projects after a timeout must not
// end up with two job sites (two circles over one site make every capture there `ambiguous`): with the same
// Idempotency-Key (header on REST, argument on GraphQL) and the same body, the retry gets the project the first
// attempt created. Keys are scoped to the team and kept for the life of the project. The header rules, the refusal and
// the lock are the kit's (as crypto's payment requests); the fingerprint's fields are the project's.
import { idempotencyFingerprint, lockIdempotencyKey as lockKitIdempotencyKey } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewProject } from './project.validation.js';

export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyReused, parseIdempotencyKey } from '@tributary/kit';

/**
 * SHA-256 of the validated, normalised create (names trimmed, an empty address as none, the radius as sent: an
 * omitted radius and an explicit one equal to today's team default are different requests, since the default may
 * change). The wire names are hashed (sorted): keep them stable so stored fingerprints stay comparable.
 */
export function createFingerprint(project: NewProject): string {
  return idempotencyFingerprint({
    address: project.address,
    coordinates: project.coordinates,
    name: project.name,
    radius_m: project.radiusM,
    // Only when linked, so fingerprints stored before customers existed still match the same body.
    ...(project.customerId === null ? {} : { customer_id: project.customerId }),
  });
}

/** Serialises creates with the same key in the same team until the transaction ends (the unique constraint is the backstop). */
export function lockIdempotencyKey(tx: EntityManager, teamId: number, key: string): Promise<void> {
  return lockKitIdempotencyKey(tx, `photos:project:${teamId}`, key);
}
