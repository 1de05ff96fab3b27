// E-mail addresses: zod's own pattern admits domain labels no host can have (`jo@shop-.example`, a label of 64
// characters) and local parts longer than RFC 5321's 64 characters, which the OpenAPI documents' `format: email`
// refuses; Schemathesis's negative_data_rejection check found sessions created with both. This is zod's pattern with a
// local part of at most 64 characters and RFC 1035 labels: 1 to 63 letters, digits and hyphens, no hyphen first or last.
import { z } from 'zod';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** Zod's local part (z.regexes.email) of at most 64 characters, then labels as above and a top-level domain of 2 to 63 letters. */
export const EMAIL_ADDRESS_PATTERN = new RegExp(`^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/** `z.email()` with EMAIL_ADDRESS_PATTERN, refused with `message`. */
export function emailAddress(message: string) {
  return z.email({ pattern: EMAIL_ADDRESS_PATTERN, error: message });
}
