// API key formats of the bnpl spec: public key `pk_<env>_…`, secret key `sk_<env>_…` (suffix lengths decided here,
// README "API key formats"). Only a bcrypt hash of the secret key is stored.
import bcrypt from 'bcryptjs';
import { randomChars } from '@tributary/kit';
import type { ApiKeyEnvironment } from './api-key.entity.js';

/** Characters [A-Za-z0-9] after `pk_<env>_`: the public key only names the pair, and 190 random bits never collide. */
export const PUBLIC_KEY_SUFFIX_LENGTH = 32;
/** Characters [A-Za-z0-9] after `sk_<env>_`: the secret (285 bits); 56 bytes in all, within bcrypt's 72-byte input. */
export const SECRET_KEY_SUFFIX_LENGTH = 48;
export const PUBLIC_KEY_PATTERN = new RegExp(`^pk_(test|live)_[A-Za-z0-9]{${PUBLIC_KEY_SUFFIX_LENGTH}}$`);
export const SECRET_KEY_PATTERN = new RegExp(`^sk_(test|live)_[A-Za-z0-9]{${SECRET_KEY_SUFFIX_LENGTH}}$`);
export const BCRYPT_COST = 10;

export function generateKeyPair(environment: ApiKeyEnvironment): { publicKey: string; secretKey: string } {
  return { publicKey: `pk_${environment}_${randomChars(PUBLIC_KEY_SUFFIX_LENGTH)}`, secretKey: `sk_${environment}_${randomChars(SECRET_KEY_SUFFIX_LENGTH)}` };
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
