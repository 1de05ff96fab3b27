// The e-mailed sign-in code (spec: "otp/verify … code (6-digit string)") and the rules decided for it.
// A 6-digit code has only a million values, so a stolen hash is no real protection against brute force; the
// protection is the short life, the few tries and the rate limits. The salted HMAC keeps the code out of the database
// in plain sight (dumps, logs of queries), and the comparison runs in constant time.
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { hexDigestsEqual } from '@tributary/kit';

export const LOGIN_CODE_PATTERN = /^\d{6}$/;
/** How long a code is valid after the login that sent it. */
export const LOGIN_CODE_TTL_MINUTES = 10;
/** Wrong tries that invalidate a code (the 5th wrong try deletes it; a new login sends a new one). */
export const LOGIN_CODE_MAX_ATTEMPTS = 5;

export interface HashedLoginCode {
  codeSalt: string;
  codeHash: string;
}

/** Six uniformly random digits (leading zeros kept). */
export function generateLoginCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

function hmac(salt: string, code: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(code, 'utf8').digest('hex');
}

export function hashLoginCode(code: string): HashedLoginCode {
  const codeSalt = randomBytes(16).toString('hex');
  return { codeSalt, codeHash: hmac(codeSalt, code) };
}

// Compared against when there is no code at all, so that path does the same work as a wrong code.
const NO_CODE: HashedLoginCode = hashLoginCode(generateLoginCode());

/** Constant-time comparison with the stored HMAC (or a throwaway one when there is no stored code). */
export function loginCodeMatches(code: string, stored: HashedLoginCode | null): boolean {
  const { codeSalt, codeHash } = stored ?? NO_CODE;
  return hexDigestsEqual(hmac(codeSalt, code), codeHash) && stored !== null;
}

export function loginCodeExpiry(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + LOGIN_CODE_TTL_MINUTES * 60_000);
}
