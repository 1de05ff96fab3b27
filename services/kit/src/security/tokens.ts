// Opaque credentials the services issue (tokens, key ids, secrets): random characters, SHA-256 at rest,
// constant-time comparison of digests, and the `Authorization: Bearer` credential.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters from [A-Za-z0-9], uniformly (no modulo bias). */
export function randomChars(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `value`. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests of the same algorithm (false for empty or different-length digests). */
export function hexDigestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The credential of `Authorization: Bearer <credential>`, or null. */
export function bearerCredential(authorization: string | undefined): string | null {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
  return match?.[1] ?? null;
}
