// Sign-in passwords, as bnpl does them: bcrypt (bcryptjs, cost 12; pure JavaScript, no install scripts). bcrypt reads
// at most 72 bytes, so a longer password never matches rather than being silently cut.
import bcrypt from 'bcryptjs';
import { wellFormedText } from '@tributary/kit';
import { z } from 'zod';

export const PASSWORD_BCRYPT_COST = 12;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_BYTES = 72;

/**
 * A bcrypt hash (cost 12) of a random value nobody holds: compared against when the e-mail is unknown or the user has
 * no password, so those cost the same bcrypt work as a wrong password (and get the identical 401).
 */
export const DUMMY_PASSWORD_HASH = '$2b$12$eU6vMGf00hN8k8FmYa1qEO7/I17pc1MjcXZR4aoLQIU/WjFFF..8S';

/** A new password (seed, operator commands): 12 characters at least, 72 bytes (UTF-8) at most. */
export const newPasswordInput = wellFormedText(z.string())
  .refine((value) => [...value].length >= PASSWORD_MIN_LENGTH, { error: `Must be at least ${PASSWORD_MIN_LENGTH} characters.` })
  .refine((value) => Buffer.byteLength(value, 'utf8') <= PASSWORD_MAX_BYTES, { error: `Must be at most ${PASSWORD_MAX_BYTES} bytes (UTF-8).` });

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_BCRYPT_COST);
}

/** One bcrypt comparison whatever arrives: against the stored hash, or the dummy hash when there is none. */
export async function passwordMatches(password: string, storedHash: string | null | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(password, storedHash ?? DUMMY_PASSWORD_HASH);
  return matches && storedHash != null && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}

/** E-mail addresses are stored and looked up lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
