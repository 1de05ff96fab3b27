// fast-check arbitraries for the fuzz suite: hostile values (what an outside fuzzer throws) and values that satisfy a
// documented JSON Schema (what a client generating requests from the document sends).
import fc from 'fast-check';
import { isWellFormedText } from '../../validation/index.js';
import type { JsonSchema } from './operations.js';

/** Longest hostile text put in a URL: Node refuses a request line plus headers over 16 KiB with a bare 431. */
const URL_TEXT_MAX = 1_500;
/** Longest hostile text put in a JSON body (well under any BODY_LIMIT). */
const BODY_TEXT_MAX = 10_000;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Strings that look like numbers, and numbers that do not fit anything. */
const numericText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom('0', '-0', '-1', '1.5', '1e3', '0x10', '1_000', 'NaN', 'Infinity', '-Infinity', '9007199254740993', '2147483648'),
);

/** Text a careless server chokes on: any code point (NUL and controls too), lone surrogates, odd literals, long runs. */
export function hostileText(maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    {
      weight: 2,
      arbitrary: fc.string({ unit: fc.oneof(fc.constant('\u0000'), loneSurrogate, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 12 }),
    },
    numericText,
    fc.constantFrom('', ' ', '.', '..', 'null', 'true', '[]', '{}', "' OR 1=1 --", '<script>', '%', '%00', '\\', '\u0000'),
    fc.integer({ min: 1, max: maxLength }).map((length) => 'x'.repeat(length)),
  );
}

/** Percent-encodes every UTF-8 byte outside RFC 3986's unreserved set (a lone surrogate becomes U+FFFD's bytes). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const plainUrlText = fc.string({ unit: 'grapheme-ascii', maxLength: 8 }).map(percentEncode);
/** `inner` between two runs of ordinary (encoded) text: the shape that slips past a check of the first character. */
const amidText = (inner: fc.Arbitrary<string>) => fc.tuple(plainUrlText, inner, plainUrlText).map((parts) => parts.join(''));

/**
 * A path or query value as it appears in the URL, one category in five each: an encoded NUL inside text; bytes that are
 * not UTF-8 (a lone lead byte, an overlong form, an encoded surrogate, a code point above U+10FFFF) inside text; a `%`
 * that starts no escape; arbitrary raw bytes, percent-encoded; arbitrary text (any code point, numeric strings, long
 * runs), percent-encoded as UTF-8.
 */
export const hostileUrlValue: fc.Arbitrary<string> = fc.oneof(
  amidText(fc.constant('%00')),
  amidText(fc.constantFrom('%FF', '%F4%82', '%C0%AF', '%ED%A0%80', '%E2%82', '%F4%90%80%80', '%80')),
  amidText(fc.constantFrom('%', '%Z', '%ZZ', '%u0041', '%%', '%2')),
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  hostileText(URL_TEXT_MAX).map(percentEncode),
);

/** Any JSON value, biased towards the ones a validator must refuse: hostile text, extreme numbers, wrong shapes. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: hostileText(BODY_TEXT_MAX) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER)) },
    fc.constantFrom(true, false, null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText(20), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function bounded(schema: JsonSchema): { min: number; max: number } {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  return { min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) };
}

/** Bounds themselves as often as values between them: an off-by-one lives there. */
function withBounds(min: number, max: number, between: fc.Arbitrary<number>): fc.Arbitrary<number> {
  return fc.oneof(fc.constantFrom(min, max), between);
}

/** Longest conforming string generated (a documented maxLength of a million is not tried in full). */
const CONFORMING_TEXT_MAX = 2_000;

function conformingString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? minLength + 40, CONFORMING_TEXT_MAX);
  const codePoints = (value: string) => [...value].length;
  const lengthFits = (value: string) => codePoints(value) >= minLength && codePoints(value) <= (schema.maxLength ?? Infinity);
  // One printable code point per unit, so lengths (counted in code points, like JSON Schema and zod) are exact.
  const base = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern)).filter(lengthFits)
    : withBounds(minLength, maxLength, fc.integer({ min: minLength, max: maxLength })).chain((length) =>
        fc.string({ unit: 'grapheme-composite', minLength: length, maxLength: length }),
      );
  // The document's 400 promises text: NUL and unpaired surrogates are malformed wherever they appear.
  return base.filter(isWellFormedText);
}

/** Values that satisfy `schema` (what a client generating requests from the document would send). */
export function conformingValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(conformingValue));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer': {
      const { min, max } = bounded(schema);
      return withBounds(min, max, fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({ ...bounded(schema), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      return conformingString(schema);
    case 'array':
      return fc.array(conformingValue(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
      return conformingObject(schema);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function conformingObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, conformingValue(property)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
}

/** A whole request body that is wrong as a whole: a bare JSON value, wrong fields everywhere, or unknown fields. */
export function hostileBody(schema: JsonSchema): fc.Arbitrary<unknown> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => [name, fc.oneof(hostileJson, conformingValue(property))] as const);
  const documented = fc.record(Object.fromEntries(fields), { requiredKeys: [] });
  return fc.oneof(
    hostileJson,
    documented,
    fc.tuple(documented, fc.dictionary(hostileText(40), hostileJson, { minKeys: 1, maxKeys: 3 })).map(([known, extra]) => ({ ...extra, ...known })),
  );
}

/** A body whose fields all conform to `schema` except `field`, which is hostile (so it reaches the code behind validation). */
export function bodyWithHostileField(schema: JsonSchema, field: string): fc.Arbitrary<unknown> {
  return fc.tuple(conformingValue(schema), hostileJson).map(([valid, hostile]) => ({ ...(valid as object), [field]: hostile }));
}
