// Query parameters arrive as strings; an integer one is parsed from digits only (no sign, decimal point, exponent or
// spaces), so `1.5`, `-1`, `1e3`, `abc` and an empty value are refused on that field with one message naming the range.
// The OpenAPI document shows what a client may send, `type: integer` with its bounds and default, not the digit-string
// schema it is parsed with, so clients and fuzzers generate values the server accepts.
import { z } from 'zod';

/** The bounds of an integer input and the value an absent one takes. */
export interface IntegerRange {
  min: number;
  max: number;
  /** Used when the parameter is absent. */
  default: number;
}

export interface IntegerQueryParamOptions extends IntegerRange {
  description: string;
}

const DIGITS = /^\d+$/;

/** `Must be an integer between 1 and 100.`: the one message of every refusal of an integer query parameter. */
export const integerRangeMessage = (min: number, max: number): string => `Must be an integer between ${min} and ${max}.`;

/** A number that is an integer within [min, max], every refusal with integerRangeMessage. */
function integerWithin(min: number, max: number) {
  const error = integerRangeMessage(min, max);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** An optional integer query parameter within [min, max], `default` when absent. */
export function integerQueryParam(options: IntegerQueryParamOptions) {
  const { min, max, description } = options;
  const error = integerRangeMessage(min, max);
  return z
    .string()
    .regex(DIGITS, { error })
    .transform(Number)
    .pipe(integerWithin(min, max))
    .optional()
    .transform((value) => value ?? options.default)
    .meta({
      description,
      // Replaces the rendered digit-string schema (type string, pattern) with the integer a client sends.
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: min, maximum: max, default: options.default, description });
      },
    });
}

/**
 * The GraphQL twin of integerQueryParam: an `Int` argument, already a number, within the same [min, max] with the same
 * message, `default` when null or absent. A resolver parses its typed arguments with it (parseInput: BAD_USER_INPUT
 * naming the argument), so an out-of-range page or size never reaches SQL.
 */
export function integerArgument(range: IntegerRange) {
  return integerWithin(range.min, range.max)
    .nullish()
    .transform((value) => value ?? range.default);
}
