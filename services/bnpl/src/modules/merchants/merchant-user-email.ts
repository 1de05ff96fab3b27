// E-mail addresses of dashboard users: one zod schema for every place that accepts one (operator commands, login,
// code verification), compared case-insensitively by storing and looking them up lowercased.
import { z } from 'zod';

/** RFC 5321's limit on a forward path; the column is as wide. */
export const EMAIL_MAX_LENGTH = 254;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An e-mail address (zod's format: no NUL, no spaces), lowercased. */
export const emailInput = z.email({ error: 'Must be an e-mail address.' }).max(EMAIL_MAX_LENGTH).toLowerCase();
