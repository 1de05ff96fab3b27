// The API key format of the crypto spec: `<KEY_ID>.<SECRET>`; key id = fixed short prefix + 24 characters,
// secret = 48 characters. Only SHA-256(secret) is stored; comparison is constant time.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const KEY_ID_PREFIX = 'ck_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_ID_PATTERN = /^ck_[A-Za-z0-9]{24}$/;
const SECRET_PATTERN = /^[A-Za-z0-9]{48}$/;

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

function randomChars(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function generateApiKey(): ParsedApiKey & { plaintext: string } {
  const keyId = `${KEY_ID_PREFIX}${randomChars(24)}`;
  const secret = randomChars(48);
  return { keyId, secret, plaintext: `${keyId}.${secret}` };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
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
  const candidate = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash ?? UNKNOWN_KEY_HASH, 'hex');
  const equal = stored.length === candidate.length && timingSafeEqual(candidate, stored);
  return equal && storedHash !== undefined;
}
