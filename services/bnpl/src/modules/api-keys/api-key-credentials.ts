// API key formats of the bnpl spec: public key `pk_<env>_…`, secret key `sk_<env>_…` (suffix lengths decided here:
// 32 and 48 characters [A-Za-z0-9]). The secret key is 48 random characters (about 285 bits), so it is stored as its
// SHA-256 digest and compared in constant time, like every random credential (the kit's credential rule). Keys made
// before that rule carry a bcrypt hash (`$2…`): it is still honoured, and replaced by the digest at its first success.
import bcrypt from 'bcryptjs';
import { hexDigestsEqual, randomChars, sha256Hex, slowHashComparisons } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import type { ApiKeyEnvironment } from './api-key.entity.js';

export const PUBLIC_KEY_PATTERN = /^pk_(test|live)_[A-Za-z0-9]{32}$/;
export const SECRET_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]{48}$/;

export function generateKeyPair(environment: ApiKeyEnvironment): { publicKey: string; secretKey: string } {
  return { publicKey: `pk_${environment}_${randomChars(32)}`, secretKey: `sk_${environment}_${randomChars(48)}` };
}

/** What is stored for a secret key: its SHA-256 digest (lowercase hex). */
export function hashSecretKey(secretKey: string): string {
  return sha256Hex(secretKey);
}

/** Whether `storedHash` is a bcrypt hash of a key made before secret keys were stored as digests. */
export function isLegacySecretKeyHash(storedHash: string): boolean {
  return storedHash.startsWith('$2');
}

/** Whether `secretKey` is the key's secret: a constant-time digest comparison, or bcrypt for a legacy hash (counted). */
export async function secretKeyMatches(secretKey: string, storedHash: string): Promise<boolean> {
  if (!isLegacySecretKeyHash(storedHash)) return hexDigestsEqual(hashSecretKey(secretKey), storedHash);
  slowHashComparisons.inc({ service: SERVICE_NAME, purpose: 'api_key' });
  return bcrypt.compare(secretKey, storedHash);
}
