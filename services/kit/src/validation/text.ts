// Text a service stores must be text PostgreSQL can hold: U+0000 cannot be stored (the insert fails: a 500), and an
// unpaired UTF-16 surrogate is not text (the driver would store U+FFFD, a different value than the one accepted).
// JSON bodies can carry both (`"\u0000"`, `"\ud800"`); the URL and headers cannot (http/malformed-request.ts).
import type { z } from 'zod';

export const MALFORMED_TEXT_MESSAGE = 'Must not contain NUL characters or unpaired surrogates.';

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const MALFORMED_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isWellFormedText = (value: string): boolean => !MALFORMED_TEXT.test(value);

/**
 * The JSON Schema pattern documenting the NUL rule on a text field (unpaired surrogates cannot be written portably in a
 * pattern, and a JSON document that encodes one is not Unicode text anyway).
 */
export const NUL_FREE_PATTERN = '^[^\\u0000]*$';

/** `schema` refusing NUL and unpaired surrogates with MALFORMED_TEXT_MESSAGE; documented with NUL_FREE_PATTERN. */
export function wellFormedText<S extends z.ZodType<string, string>>(schema: S) {
  return schema.refine(isWellFormedText, { error: MALFORMED_TEXT_MESSAGE }).meta({ pattern: NUL_FREE_PATTERN });
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID in its canonical text form (any case). Ids from a path, a query or a body are checked with
 * it before they reach PostgreSQL, where a malformed uuid is an error rather than "not found".
 */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
