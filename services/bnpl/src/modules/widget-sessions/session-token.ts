// Widget session token format (spec: ws_ prefix; the rest is decided here): `ws_` + 32 characters [A-Za-z0-9]
// (about 190 bits from a CSPRNG), so a checkout URL cannot be guessed.
import { randomChars, tokenPattern, type TokenFormat } from '@tributary/kit';

export const SESSION_TOKEN_FORMAT = { prefix: 'ws_', alphabet: 'alphanumeric', length: 32 } as const satisfies TokenFormat;
export const SESSION_TOKEN_PREFIX = SESSION_TOKEN_FORMAT.prefix;
export const SESSION_TOKEN_PATTERN = tokenPattern(SESSION_TOKEN_FORMAT);

export function generateSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomChars(SESSION_TOKEN_FORMAT.length)}`;
}
