// The API key format of the crypto spec: `<KEY_ID>.<SECRET>`; key id = fixed short prefix + 24 characters,
// secret = 48 characters. Only SHA-256(secret) is stored; comparison is constant time.
import { hexDigestsEqual, randomChars, sha256Hex } from '@tributary/kit';

export const KEY_ID_PREFIX = 'ck_';
const KEY_ID_PATTERN = /^ck_[A-Za-z0-9]{24}$/;
const SECRET_PATTERN = /^[A-Za-z0-9]{48}$/;

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

export function generateApiKey(): ParsedApiKey & { plaintext: string } {
  const keyId = `${KEY_ID_PREFIX}${randomChars(24)}`;
  const secret = randomChars(48);
  return { keyId, secret, plaintext: `${keyId}.${secret}` };
}

export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/** Parses `Bearer <KEY_ID>.<SECRET>`; null for anything else (missing, other scheme, wrong shape). */
export function parseBearerApiKey(authorization: string | undefined): ParsedApiKey | null {
  const match = /^Bearer ([^\s.]+)\.(\S+)$/.exec(authorization ?? '');
  if (!match) return null;
  const [, keyId = '', secret = ''] = match;
  if (!KEY_ID_PATTERN.test(keyId) || !SECRET_PATTERN.test(secret)) return null;
  return { keyId, secret };
}

// Compared against when no key matched, so unknown and malformed keys cost the same hash + compare.
const UNKNOWN_KEY_HASH = hashSecret('unknown-key-placeholder');

/** Constant-time comparison of SHA-256(secret) against the stored hex hash (or a placeholder when none). */
export function secretMatches(secret: string, storedHash: string | undefined): boolean {
  const equal = hexDigestsEqual(hashSecret(secret), storedHash ?? UNKNOWN_KEY_HASH);
  return equal && storedHash !== undefined;
}
