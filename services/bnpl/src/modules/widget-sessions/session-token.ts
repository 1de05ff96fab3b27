// Widget session token format (spec: ws_ prefix; the rest is decided here): `ws_` + 32 characters [A-Za-z0-9]
// (about 190 bits from a CSPRNG), so a checkout URL cannot be guessed.
import { randomChars } from '@tributary/kit';

export const SESSION_TOKEN_PREFIX = 'ws_';
export const SESSION_TOKEN_PATTERN = /^ws_[A-Za-z0-9]{32}$/;

export function generateSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomChars(32)}`;
}
