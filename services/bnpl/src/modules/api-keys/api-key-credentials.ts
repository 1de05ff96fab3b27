// API key formats of the bnpl spec: public key `pk_<env>_…`, secret key `sk_<env>_…` (suffix lengths decided here:
// 32 and 48 characters [A-Za-z0-9]). Only a bcrypt hash of the secret key is stored (the spec's words). A pair is
// looked up by its public key first, so bcrypt runs only for a known public key (MerchantAuthService).
import bcrypt from 'bcryptjs';
import { randomChars, slowHashComparisons } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
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

/** The bcrypt comparison of a secret key with a known key's stored hash (counted in slowHashComparisons). */
export async function secretKeyMatches(secretKey: string, storedHash: string): Promise<boolean> {
  slowHashComparisons.inc({ service: SERVICE_NAME, purpose: 'api_key' });
  return bcrypt.compare(secretKey, storedHash);
}
