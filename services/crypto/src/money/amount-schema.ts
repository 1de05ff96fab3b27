// zod schemas for amount fields. Request bodies parse a decimal string into an Amount (a JSON number is refused,
// never rounded); response bodies document amounts as decimal strings.
import { z } from 'zod';
import { AMOUNT_MESSAGES, AMOUNT_PATTERN, AMOUNT_SCALE, Amount, writtenDecimalPlaces } from './amount.js';

export interface AmountSchemaOptions {
  /** Most decimal places as written, trailing zeros included (the asset's decimals); default 18, the internal precision. */
  maxDecimals?: number;
  /** Named in the too-many-decimals message, e.g. "BTC". */
  assetCode?: string;
  /** Accept "0". Default false: the spec's amounts must be positive. */
  allowZero?: boolean;
  /** OpenAPI description. */
  description?: string;
}

/**
 * An amount field of a request body: a decimal string (`^\d+(\.\d+)?$`), parsed into an exact Amount.
 * Refuses, with the 422 `errors.<field>` messages of AMOUNT_MESSAGES: JSON numbers (not rounded), other non-strings,
 * a bad format, zero (unless allowZero), more than 60 integer digits, and more decimal places than maxDecimals, counted
 * as written (spec: "Must not have more decimal places than the asset's decimals", so "1.000000000" is refused for 8).
 * A missing value is left to the caller's required/optional handling (parseInput says "This field is required.").
 *
 * When the precision depends on another field (the create body's asset_id), parse with the default (18) and check
 * the asset's decimals afterwards with `amountDecimalsMessage` on the text as sent.
 */
export function amountSchema(options: AmountSchemaOptions = {}) {
  const { maxDecimals = AMOUNT_SCALE, assetCode, allowZero = false } = options;
  return z
    .string({
      // undefined stays "required" (the parse-level message); everything else gets an amount-specific message.
      error: (issue) => (issue.input === undefined ? undefined : typeof issue.input === 'number' ? AMOUNT_MESSAGES.number : AMOUNT_MESSAGES.type),
    })
    .regex(AMOUNT_PATTERN, { error: AMOUNT_MESSAGES.format })
    .meta({
      description: options.description ?? `Decimal string, at most ${maxDecimals} decimal places${allowZero ? '' : ', greater than zero'}. JSON numbers are refused.`,
      examples: ['0.5'],
    })
    .transform((text, ctx) => {
      const result = Amount.safeParse(text, { maxDecimals, assetCode, positive: !allowZero, placesAsWritten: true });
      if (result.ok) return result.amount;
      ctx.issues.push({ code: 'custom', message: result.error.message, input: text });
      return z.NEVER;
    });
}

/**
 * The 422 message when the amount `text` (as sent, already a valid decimal string) has more decimal places than an
 * asset's decimals, trailing zeros included, or undefined when it fits.
 */
export function amountDecimalsMessage(text: string, asset: { decimals: number; code?: string }): string | undefined {
  return writtenDecimalPlaces(text) <= asset.decimals ? undefined : AMOUNT_MESSAGES.tooManyDecimals(asset.decimals, asset.code);
}

/** An amount in a response body: a plain decimal string, never a JSON number or exponent notation. */
export const decimalStringSchema = z
  .string()
  .regex(AMOUNT_PATTERN)
  .meta({ description: 'Exact decimal string (no exponent, no trailing zeros; "0" for zero).', examples: ['0.5'] });
