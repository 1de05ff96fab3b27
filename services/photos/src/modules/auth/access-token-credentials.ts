// Bearer token format (not shown in the spec; decided here): `ph_` + 48 characters [A-Za-z0-9]. Only SHA-256 is stored.
import { randomChars, sha256Hex } from '@tributary/kit';

export const ACCESS_TOKEN_PREFIX = 'ph_';
export const ACCESS_TOKEN_PATTERN = /^ph_[A-Za-z0-9]{48}$/;

export function generateAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomChars(48)}`;
}

export const hashAccessToken = sha256Hex;
