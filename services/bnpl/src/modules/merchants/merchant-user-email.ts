// E-mail addresses of dashboard users: one zod schema for every place that accepts one (operator commands, login,
// code verification), compared case-insensitively by storing and looking them up lowercased.
import { emailAddress } from '@tributary/kit';

/** RFC 5321's limit on a forward path; the column is as wide. */
export const EMAIL_MAX_LENGTH = 254;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An e-mail address (the kit's format: no NUL, no spaces, host labels a host can have), lowercased. */
export const emailInput = emailAddress('Must be an e-mail address.').max(EMAIL_MAX_LENGTH).toLowerCase();
