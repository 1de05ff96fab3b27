// API key formats of the bnpl spec: public key `pk_<env>_…`, secret key `sk_<env>_…` (suffix lengths decided here,
// README "API key formats"). Only a bcrypt hash of the secret key is stored (the spec's words). A pair is looked up by
// its public key first, so bcrypt runs only for a known public key (MerchantAuthService).
import bcrypt from 'bcryptjs';
import { randomChars, slowHashComparisons } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
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

/** The bcrypt comparison of a secret key with a known key's stored hash (counted in slowHashComparisons). */
export async function secretKeyMatches(secretKey: string, storedHash: string): Promise<boolean> {
  slowHashComparisons.inc({ service: SERVICE_NAME, purpose: 'api_key' });
  return bcrypt.compare(secretKey, storedHash);
}
