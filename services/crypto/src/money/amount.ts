// Exact decimal amounts: a bigint count of 10^-18 units (fixed point at 18 places, the spec's internal precision).
// No JS number ever holds an amount: parsing reads digits, arithmetic is bigint, formatting writes digits.

/** Internal precision: every amount is an integer number of 10^-18 units. */
export const AMOUNT_SCALE = 18;

/** The spec's amount format: digits, optionally a point and more digits. No sign, exponent, spaces or separators. */
export const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;

/**
 * Largest number of significant digits before the decimal point. Amounts are stored as `numeric(78, 18)`
 * (60 integer digits: more than any chain's total supply), so anything larger is refused at the door instead of
 * failing in the database.
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 60;

const UNITS_PER_WHOLE = 10n ** BigInt(AMOUNT_SCALE);

/** The 422 `errors.amount` messages, one per way an amount can be wrong. */
export const AMOUNT_MESSAGES = {
  number: 'The amount must be a decimal string such as "0.5", not a JSON number.',
  type: 'The amount must be a decimal string such as "0.5".',
  format: 'The amount must be a plain decimal string such as "0.5": digits with an optional fractional part, no sign, exponent, spaces or thousands separators.',
  notPositive: 'The amount must be greater than zero.',
  tooLarge: `The amount must have at most ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point.`,
  tooManyDecimals(maxDecimals: number, assetCode?: string): string {
    const of = assetCode ? ` (the precision of ${assetCode})` : '';
    if (maxDecimals === 0) return `The amount must be a whole number${of}.`;
    return `The amount must not have more than ${maxDecimals} decimal place${maxDecimals === 1 ? '' : 's'}${of}.`;
  },
} as const;

export type AmountErrorReason = 'type' | 'format' | 'not_positive' | 'too_large' | 'too_many_decimals';

/** Why a text is not an acceptable amount; `message` is the client-facing 422 message. */
export class AmountError extends Error {
  constructor(
    readonly reason: AmountErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'AmountError';
  }
}

export interface ParseAmountOptions {
  /** Most significant decimal places allowed (the asset's decimals); default and maximum 18. */
  maxDecimals?: number;
  /** Refuse zero (the spec's "must be positive"). Default false. */
  positive?: boolean;
  /** Named in the too-many-decimals message, e.g. "BTC". */
  assetCode?: string;
  /**
   * Count the decimal places as written, trailing zeros included (the spec's rule for amounts in requests: "1.000000000"
   * has 9). Default false: significant places only (a value read from a node or the database).
   */
  placesAsWritten?: boolean;
}

export type SafeParseAmountResult = { ok: true; amount: Amount } | { ok: false; error: AmountError };

function checkedMaxDecimals(maxDecimals: number | undefined): number {
  const value = maxDecimals ?? AMOUNT_SCALE;
  if (!Number.isInteger(value) || value < 0 || value > AMOUNT_SCALE) {
    throw new RangeError(`maxDecimals must be an integer from 0 to ${AMOUNT_SCALE}, got ${value}`);
  }
  return value;
}

/** Decimal places of a decimal string as written, trailing zeros included: 9 for "1.000000000", 0 for "12". */
export function writtenDecimalPlaces(text: string): number {
  const point = text.indexOf('.');
  return point === -1 ? 0 : text.length - point - 1;
}

/** Integer and fraction digits without leading zeros (integer) and trailing zeros (fraction). */
function significantDigits(integerDigits: string, fractionDigits: string): { integer: string; fraction: string } {
  return { integer: integerDigits.replace(/^0+/, ''), fraction: fractionDigits.replace(/0+$/, '') };
}

function unitsFromDigits(integer: string, fraction: string): bigint {
  // fraction has at most AMOUNT_SCALE digits here.
  return BigInt(integer || '0') * UNITS_PER_WHOLE + BigInt(fraction.padEnd(AMOUNT_SCALE, '0'));
}

/**
 * An exact, immutable decimal amount. Values produced by `parse` are never negative; `minus` may produce a
 * negative value (e.g. an overpaid request's outstanding remainder before clamping) and `toString` renders it with
 * a leading "-".
 *
 * Converting an Amount to a number is refused (`+amount`, `amount < other`, `amount + 1` throw a TypeError), so a
 * float can never sneak in; use `compare`/`lessThan`/… and `toString`.
 */
export class Amount {
  static readonly ZERO = new Amount(0n);

  /** The value in 10^-18 units. */
  readonly units: bigint;

  private constructor(units: bigint) {
    this.units = units;
  }

  /** An amount from its 10^-18 units. */
  static fromUnits(units: bigint): Amount {
    if (typeof units !== 'bigint') throw new TypeError('Amount.fromUnits expects a bigint');
    return units === 0n ? Amount.ZERO : new Amount(units);
  }

  /** An amount from a chain's integer base units (satoshi with decimals 8, wei with decimals 18). */
  static fromBaseUnits(baseUnits: bigint, decimals: number): Amount {
    return Amount.fromUnits(baseUnits * 10n ** BigInt(AMOUNT_SCALE - checkedMaxDecimals(decimals)));
  }

  /**
   * Parses the spec's format (`^\d+(\.\d+)?$`). Leading zeros of the integer part and trailing zeros of the fraction
   * carry no meaning for the value ("007.50" is 7.5); decimal places are counted after trailing zeros are dropped unless
   * `placesAsWritten`. Throws AmountError with the 422 message.
   */
  static parse(text: string, options: ParseAmountOptions = {}): Amount {
    const result = Amount.safeParse(text, options);
    if (!result.ok) throw result.error;
    return result.amount;
  }

  /** Like `parse`, returning the error instead of throwing it. Never throws for any input value. */
  static safeParse(text: unknown, options: ParseAmountOptions = {}): SafeParseAmountResult {
    const maxDecimals = checkedMaxDecimals(options.maxDecimals);
    const fail = (reason: AmountErrorReason, message: string): SafeParseAmountResult => ({ ok: false, error: new AmountError(reason, message) });
    if (typeof text !== 'string') return fail('type', typeof text === 'number' ? AMOUNT_MESSAGES.number : AMOUNT_MESSAGES.type);
    if (!AMOUNT_PATTERN.test(text)) return fail('format', AMOUNT_MESSAGES.format);
    const point = text.indexOf('.');
    const { integer, fraction } = point === -1 ? significantDigits(text, '') : significantDigits(text.slice(0, point), text.slice(point + 1));
    if (integer.length > MAX_AMOUNT_INTEGER_DIGITS) return fail('too_large', AMOUNT_MESSAGES.tooLarge);
    const places = options.placesAsWritten ? writtenDecimalPlaces(text) : fraction.length;
    if (places > maxDecimals) return fail('too_many_decimals', AMOUNT_MESSAGES.tooManyDecimals(maxDecimals, options.assetCode));
    const amount = Amount.fromUnits(unitsFromDigits(integer, fraction));
    if (options.positive && amount.isZero()) return fail('not_positive', AMOUNT_MESSAGES.notPositive);
    return { ok: true, amount };
  }

  /**
   * Reads a stored value: an optional "-", digits, optionally a fraction of at most 18 digits (PostgreSQL renders
   * `numeric(78, 18)` this way). Throws a TypeError for anything else: the database is trusted, so this is a bug.
   */
  static fromDecimalString(text: string): Amount {
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
    if (!match) throw new TypeError(`Not a decimal string: ${JSON.stringify(text.slice(0, 100))}`);
    const { integer, fraction } = significantDigits(match[2]!, match[3] ?? '');
    if (fraction.length > AMOUNT_SCALE) throw new TypeError(`More than ${AMOUNT_SCALE} significant decimal places: ${text}`);
    const units = unitsFromDigits(integer, fraction);
    return Amount.fromUnits(match[1] === '-' ? -units : units);
  }

  static min(a: Amount, b: Amount): Amount {
    return a.units <= b.units ? a : b;
  }

  static max(a: Amount, b: Amount): Amount {
    return a.units >= b.units ? a : b;
  }

  /** Sum of any number of amounts (zero for none). */
  static sum(amounts: Iterable<Amount>): Amount {
    let units = 0n;
    for (const amount of amounts) units += amount.units;
    return Amount.fromUnits(units);
  }

  plus(other: Amount): Amount {
    return Amount.fromUnits(this.units + other.units);
  }

  minus(other: Amount): Amount {
    return Amount.fromUnits(this.units - other.units);
  }

  /** -1, 0 or 1. */
  compare(other: Amount): -1 | 0 | 1 {
    return this.units < other.units ? -1 : this.units > other.units ? 1 : 0;
  }

  equals(other: Amount): boolean {
    return this.units === other.units;
  }

  lessThan(other: Amount): boolean {
    return this.units < other.units;
  }

  lessThanOrEqual(other: Amount): boolean {
    return this.units <= other.units;
  }

  greaterThan(other: Amount): boolean {
    return this.units > other.units;
  }

  greaterThanOrEqual(other: Amount): boolean {
    return this.units >= other.units;
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isPositive(): boolean {
    return this.units > 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  /** Significant decimal places (trailing zeros do not count): 0 for "12", 1 for "0.5", 8 for "0.00000001". */
  decimalPlaces(): number {
    const remainder = (this.units < 0n ? -this.units : this.units) % UNITS_PER_WHOLE;
    if (remainder === 0n) return 0;
    return remainder.toString().padStart(AMOUNT_SCALE, '0').replace(/0+$/, '').length;
  }

  /** Whether the value is representable with `decimals` places (an asset's precision). */
  fitsDecimals(decimals: number): boolean {
    return this.decimalPlaces() <= checkedMaxDecimals(decimals);
  }

  /** The value in a chain's integer base units; throws a RangeError when it has more places than `decimals`. */
  toBaseUnits(decimals: number): bigint {
    if (!this.fitsDecimals(decimals)) throw new RangeError(`${this.toString()} has more than ${decimals} decimal places`);
    return this.units / 10n ** BigInt(AMOUNT_SCALE - decimals);
  }

  /** Plain decimal string: no exponent, no trailing zeros, no leading zeros; "0" for zero ("0.5", "12", "0.00000001"). */
  toString(): string {
    const negative = this.units < 0n;
    const magnitude = negative ? -this.units : this.units;
    const integer = (magnitude / UNITS_PER_WHOLE).toString();
    const fraction = (magnitude % UNITS_PER_WHOLE).toString().padStart(AMOUNT_SCALE, '0').replace(/0+$/, '');
    return `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
  }

  /** JSON renders the decimal string, never a JSON number. */
  toJSON(): string {
    return this.toString();
  }

  /** Template literals and String() get the decimal string; numeric coercion is refused. */
  [Symbol.toPrimitive](hint: 'string' | 'number' | 'default'): string {
    if (hint === 'string') return this.toString();
    throw new TypeError('An Amount cannot be converted to a number: use compare(), plus(), minus() or toString()');
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Amount(${this.toString()})`;
  }
}
