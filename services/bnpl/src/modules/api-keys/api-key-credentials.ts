// API key formats of the bnpl spec: public key `pk_<env>_…`, secret key `sk_<env>_…` (suffix lengths decided here:
// 32 and 48 characters [A-Za-z0-9]). Only a bcrypt hash of the secret key is stored.
import bcrypt from 'bcryptjs';
import { randomChars } from '@tributary/kit';
import type { ApiKeyEnvironment } from './api-key.entity.js';

export const PUBLIC_KEY_PATTERN = /^pk_(test|live)_[A-Za-z0-9]{32}$/;
export const SECRET_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]{48}$/;
export const BCRYPT_COST = 10;

export function generateKeyPair(environment: ApiKeyEnvironment): { publicKey: string; secretKey: string } {
  return { publicKey: `pk_${environment}_${randomChars(32)}`, secretKey: `sk_${environment}_${randomChars(48)}` };
}

export function hashSecretKey(secretKey: string): Promise<string> {
  return bcrypt.hash(secretKey, BCRYPT_COST);
}

// A valid hash of nothing anyone holds: compared against when the public key is unknown, so unknown and known
// public keys cost the same bcrypt work.
const PLACEHOLDER_HASH = bcrypt.hashSync('placeholder-for-unknown-public-keys', BCRYPT_COST);

/** bcrypt comparison (constant time in the hash); runs even when no key was found. */
export async function secretKeyMatches(secretKey: string, storedHash: string | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(secretKey, storedHash ?? PLACEHOLDER_HASH);
  return matches && storedHash !== undefined;
}
