// The share link's token: 32 random bytes (base64url, 43 characters) behind a `rps_` prefix, unguessable. Only its
// SHA-256 is stored, so a database read does not reveal live links; the link is shown once, when it is made, and
// making it again replaces it (the old link stops working). Revoking clears the hash: the link then answers 404.
import { createHash, randomBytes } from 'node:crypto';
import { tokenPattern, type TokenFormat } from '@tributary/kit';

/** 32 random bytes are 43 base64url characters. */
const SHARE_TOKEN_BYTES = 32;
export const SHARE_TOKEN_FORMAT = { prefix: 'rps_', alphabet: 'base64url', length: 43 } as const satisfies TokenFormat;
export const SHARE_TOKEN_PREFIX = SHARE_TOKEN_FORMAT.prefix;
const SHARE_TOKEN_PATTERN = tokenPattern(SHARE_TOKEN_FORMAT);

export function newShareToken(): string {
  return `${SHARE_TOKEN_PREFIX}${randomBytes(SHARE_TOKEN_BYTES).toString('base64url')}`;
}

export function hashShareToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether text has the shape of a share token (anything else is a 404 without a database read). */
export function isShareToken(text: string): boolean {
  return SHARE_TOKEN_PATTERN.test(text);
}
