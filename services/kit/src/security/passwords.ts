// Passwords (dashboard and sign-in): bcrypt (bcryptjs, cost 12). argon2id was the first choice, but the `argon2`
// package needs an install script (node-gyp-build) and the repository installs with strict-allow-scripts; bcryptjs is
// pure JavaScript. bcrypt reads at most 72 bytes, so longer passwords are refused when set and never match.
// bcrypt runs on the event loop (tens of milliseconds): every comparison is counted (slowHashComparisons), and the
// routes that compare passwords are rate limited per e-mail and per client IP.
import bcrypt from 'bcryptjs';
import { z } from 'zod';
import { slowHashComparisons } from '../observability/metrics.js';
import { wellFormedText } from '../validation/index.js';

export const PASSWORD_BCRYPT_COST = 12;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_BYTES = 72;

/**
 * A bcrypt hash (cost 12) of a random value nobody holds: compared against when the e-mail is unknown or the user has
 * no password, so those cost the same bcrypt work as a wrong password (and get the identical 401). A constant, so no
 * process pays for making it.
 */
export const DUMMY_PASSWORD_HASH = '$2b$12$eU6vMGf00hN8k8FmYa1qEO7/I17pc1MjcXZR4aoLQIU/WjFFF..8S';

/** A new password: 12 characters at least, 72 bytes (UTF-8) at most. */
export const newPasswordInput = wellFormedText(z.string())
  .refine((value) => [...value].length >= PASSWORD_MIN_LENGTH, { error: `Must be at least ${PASSWORD_MIN_LENGTH} characters.` })
  .refine((value) => Buffer.byteLength(value, 'utf8') <= PASSWORD_MAX_BYTES, { error: `Must be at most ${PASSWORD_MAX_BYTES} bytes (UTF-8).` });

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_BCRYPT_COST);
}

/**
 * One bcrypt comparison whatever arrives: against the stored hash, or the dummy hash when there is none (unknown
 * e-mail, no password set). A password longer than any that can be set never matches (bcrypt would compare only its
 * first 72 bytes). `service` labels the comparison in slowHashComparisons.
 */
export async function passwordMatches(password: string, storedHash: string | null | undefined, service: string): Promise<boolean> {
  slowHashComparisons.inc({ service, purpose: 'password' });
  const matches = await bcrypt.compare(password, storedHash ?? DUMMY_PASSWORD_HASH);
  return matches && storedHash != null && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}
