// E-mail addresses: zod's own pattern admits domain labels no host can have (`jo@shop-.example`, a label of 64
// characters) and local parts longer than RFC 5321's 64 characters, which the OpenAPI documents' `format: email`
// refuses; Schemathesis's negative_data_rejection check found sessions created with both. This is zod's pattern with a
// local part of at most 64 characters and RFC 1035 labels: 1 to 63 letters, digits and hyphens, no hyphen first or last.
import { z } from 'zod';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * Zod's local part (z.regexes.email), then labels as above and a top-level domain of 2 to 63 letters. No lookahead:
 * the kit's fuzz suite draws conforming strings from documented patterns (fast-check's stringMatching has none).
 */
export const EMAIL_ADDRESS_PATTERN = new RegExp(`^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);
/** RFC 5321's limit on the local part (before the `@`); `format: email` states it, so it is not in the pattern. */
export const EMAIL_LOCAL_PART_MAX = 64;

/** `z.email()` with EMAIL_ADDRESS_PATTERN and EMAIL_LOCAL_PART_MAX, refused with `message`. */
export function emailAddress(message: string) {
  return z.email({ pattern: EMAIL_ADDRESS_PATTERN, error: message }).refine((email) => email.indexOf('@') <= EMAIL_LOCAL_PART_MAX, { error: message });
}
