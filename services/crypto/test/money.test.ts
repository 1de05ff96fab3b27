import { describe, expect, it } from '@jest/globals';
import { parseInput, ValidationError } from '@tributary/kit';
import { z } from 'zod';
import {
  AMOUNT_COLUMN_TYPE,
  AMOUNT_MESSAGES,
  AMOUNT_SCALE,
  Amount,
  AmountError,
  AmountType,
  amountDecimalsMessage,
  amountSchema,
  decimalStringSchema,
  writtenDecimalPlaces,
} from '../src/money/index.js';

/** Deterministic pseudo-random source (xorshift64*), so every run checks the same many values and a failure reproduces. */
function random(seed: bigint) {
  let state = seed;
  const next = (): bigint => {
    state ^= state >> 12n;
    state ^= (state << 25n) & 0xffffffffffffffffn;
    state ^= state >> 27n;
    return (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
  };
  const int = (max: number): number => Number(next() % BigInt(max));
  const digits = (n: number): string => Array.from({ length: n }, () => String(int(10))).join('');
  return {
    int,
    digits,
    /** A canonical decimal string: no leading zeros, no trailing zeros, up to `maxDecimals` places and 60 integer digits. */
    canonical(maxDecimals = AMOUNT_SCALE): string {
      const integerLength = [0, 1, 1, 2, 5, 10, 20, 40, 60][int(9)]!;
      const integer = integerLength === 0 ? '0' : String(1 + int(9)) + digits(integerLength - 1);
      const places = int(maxDecimals + 1);
      const fraction = places === 0 ? '' : digits(places - 1) + String(1 + int(9));
      return fraction ? `${integer}.${fraction}` : integer;
    },
  };
}

const N = 2000;

describe('Amount.parse / toString', () => {
  it('formats plain decimal strings without exponent or trailing zeros', () => {
    const cases: Array<[string, string]> = [
      ['0', '0'],
      ['0.0', '0'],
      ['000', '0'],
      ['0.5', '0.5'],
      ['0.50', '0.5'],
      ['12', '12'],
      ['12.000', '12'],
      ['007.50', '7.5'],
      ['0.00000001', '0.00000001'],
      ['0.000000000000000001', '0.000000000000000001'],
      ['1.000000000000000001', '1.000000000000000001'],
      ['100000000000000000000000', '100000000000000000000000'],
      ['123456789012345678901234567890123456789012345678901234567890.123456789012345678', '123456789012345678901234567890123456789012345678901234567890.123456789012345678'],
    ];
    for (const [input, output] of cases) {
      const amount = Amount.parse(input);
      expect(amount.toString()).toBe(output);
      expect(JSON.stringify({ amount })).toBe(`{"amount":"${output}"}`);
      expect(`${amount}`).toBe(output);
    }
  });

  it('round-trips every canonical string exactly (property, 2000 values)', () => {
    const r = random(0x9e3779b97f4a7c15n);
    for (let i = 0; i < N; i++) {
      const text = r.canonical();
      const amount = Amount.parse(text);
      expect(amount.toString()).toBe(text);
      expect(Amount.fromUnits(amount.units).toString()).toBe(text);
      expect(Amount.fromDecimalString(text).equals(amount)).toBe(true);
      // Leading zeros and trailing zeros never change the value.
      const padded = `00${text}${text.includes('.') ? '000' : '.000'}`;
      expect(Amount.parse(padded).equals(amount)).toBe(true);
    }
  });

  it('units are the digits shifted by 18 places (no float anywhere)', () => {
    const r = random(42n);
    for (let i = 0; i < N; i++) {
      const text = r.canonical();
      const [integer, fraction = ''] = text.split('.');
      expect(Amount.parse(text).units).toBe(BigInt(integer! + fraction.padEnd(18, '0')));
    }
    // Values a double cannot hold exactly stay exact.
    expect(Amount.parse('0.1').plus(Amount.parse('0.2')).toString()).toBe('0.3');
    expect(Amount.parse('9007199254740993').toString()).toBe('9007199254740993');
    expect(Amount.parse('9007199254740993.000000000000000001').minus(Amount.parse('0.000000000000000001')).toString()).toBe('9007199254740993');
  });

  it('refuses anything outside ^\\d+(\\.\\d+)?$ with the format message', () => {
    for (const bad of ['', ' 1', '1 ', '+1', '-1', '1e5', '1E-8', '.5', '5.', '1,000', '1_000', '1.2.3', '0x10', 'Infinity', 'NaN', '١', '1\n', '１']) {
      const result = Amount.safeParse(bad);
      expect(result).toEqual({ ok: false, error: expect.any(AmountError) });
      if (!result.ok) {
        expect(result.error.reason).toBe('format');
        expect(result.error.message).toBe(AMOUNT_MESSAGES.format);
      }
      expect(() => Amount.parse(bad)).toThrow(AMOUNT_MESSAGES.format);
    }
  });

  it('refuses non-strings, naming JSON numbers', () => {
    expect(Amount.safeParse(1.5)).toMatchObject({ ok: false, error: { reason: 'type', message: AMOUNT_MESSAGES.number } });
    for (const bad of [null, undefined, true, 1n, {}, ['1']]) {
      expect(Amount.safeParse(bad)).toMatchObject({ ok: false, error: { reason: 'type', message: AMOUNT_MESSAGES.type } });
    }
  });

  it('counts significant decimal places against the limit (trailing zeros are free)', () => {
    expect(Amount.parse('0.12345678', { maxDecimals: 8 }).toString()).toBe('0.12345678');
    expect(Amount.parse('1.1000000000', { maxDecimals: 8 }).toString()).toBe('1.1');
    expect(Amount.parse('1.0000000000000000000000', { maxDecimals: 8 }).toString()).toBe('1');
    expect(() => Amount.parse('0.123456789', { maxDecimals: 8, assetCode: 'BTC' })).toThrow(
      'The amount must not have more than 8 decimal places (the precision of BTC).',
    );
    // 18 is the internal limit, whatever the asset.
    expect(Amount.parse('0.123456789012345678').decimalPlaces()).toBe(18);
    expect(Amount.safeParse('0.1234567890123456789')).toMatchObject({ ok: false, error: { reason: 'too_many_decimals' } });
    expect(AMOUNT_MESSAGES.tooManyDecimals(1)).toBe('The amount must not have more than 1 decimal place.');
    expect(AMOUNT_MESSAGES.tooManyDecimals(0)).toBe('The amount must be a whole number.');
    expect(() => Amount.parse('1', { maxDecimals: 19 })).toThrow(RangeError);
  });

  it('property: a value parses under maxDecimals d exactly when it has at most d significant places', () => {
    const r = random(7n);
    for (let i = 0; i < N; i++) {
      const text = r.canonical();
      const places = text.includes('.') ? text.split('.')[1]!.length : 0;
      const limit = r.int(19);
      const result = Amount.safeParse(text, { maxDecimals: limit });
      expect(result.ok).toBe(places <= limit);
      expect(Amount.parse(text).decimalPlaces()).toBe(places);
      expect(Amount.parse(text).fitsDecimals(limit)).toBe(places <= limit);
    }
  });

  it('accepts 60 integer digits and refuses 61 (leading zeros do not count)', () => {
    const sixty = '9'.repeat(60);
    expect(Amount.parse(`${sixty}.999999999999999999`).toString()).toBe(`${sixty}.999999999999999999`);
    expect(Amount.parse(`0000${sixty}`).toString()).toBe(sixty);
    expect(Amount.safeParse(`1${'0'.repeat(60)}`)).toMatchObject({ ok: false, error: { reason: 'too_large', message: AMOUNT_MESSAGES.tooLarge } });
    // A huge string is refused quickly, not turned into a huge bigint.
    expect(Amount.safeParse('1'.repeat(1_000_000))).toMatchObject({ ok: false, error: { reason: 'too_large' } });
  });

  it('positive check refuses zero in any spelling', () => {
    for (const zero of ['0', '0.0', '000.000000000000000000000']) {
      expect(Amount.safeParse(zero, { positive: true })).toMatchObject({ ok: false, error: { reason: 'not_positive', message: AMOUNT_MESSAGES.notPositive } });
      expect(Amount.parse(zero).isZero()).toBe(true);
    }
    expect(Amount.parse('0.000000000000000001', { positive: true }).isPositive()).toBe(true);
  });
});

describe('Amount arithmetic', () => {
  it('property: add/subtract/compare agree with bigint arithmetic on the units', () => {
    const r = random(123456789n);
    for (let i = 0; i < N; i++) {
      const a = Amount.parse(r.canonical());
      const b = Amount.parse(r.canonical());
      expect(a.plus(b).units).toBe(a.units + b.units);
      expect(a.plus(b).minus(b).equals(a)).toBe(true);
      expect(a.plus(b).equals(b.plus(a))).toBe(true);
      expect(a.compare(b)).toBe(a.units < b.units ? -1 : a.units > b.units ? 1 : 0);
      expect(b.compare(a)).toBe(-a.compare(b));
      expect(a.lessThan(b)).toBe(a.compare(b) < 0);
      expect(a.lessThanOrEqual(b)).toBe(a.compare(b) <= 0);
      expect(a.greaterThan(b)).toBe(a.compare(b) > 0);
      expect(a.greaterThanOrEqual(b)).toBe(a.compare(b) >= 0);
      const difference = a.minus(b);
      expect(difference.isNegative()).toBe(a.lessThan(b));
      // Negative values format with a sign and read back.
      expect(Amount.fromDecimalString(difference.toString()).equals(difference)).toBe(true);
      expect(Amount.min(a, b).lessThanOrEqual(Amount.max(a, b))).toBe(true);
    }
  });

  it('sums, formats negatives and signs, and works in base units', () => {
    expect(Amount.sum(['0.1', '0.2', '0.3'].map((v) => Amount.parse(v))).toString()).toBe('0.6');
    expect(Amount.sum([]).toString()).toBe('0');
    expect(Amount.parse('1').minus(Amount.parse('1.5')).toString()).toBe('-0.5');
    expect(Amount.ZERO.minus(Amount.parse('12')).toString()).toBe('-12');
    expect(Amount.parse('0.00000001').toBaseUnits(8)).toBe(1n);
    expect(Amount.parse('1.5').toBaseUnits(18)).toBe(1_500_000_000_000_000_000n);
    expect(Amount.fromBaseUnits(12345n, 8).toString()).toBe('0.00012345');
    expect(() => Amount.parse('0.000000001').toBaseUnits(8)).toThrow(RangeError);
  });

  it('refuses numeric coercion, so a float or a string comparison can never slip in', () => {
    const a = Amount.parse('10');
    const b = Amount.parse('9');
    expect(() => +a).toThrow(TypeError);
    expect(() => (a as unknown as number) > (b as unknown as number)).toThrow(TypeError);
    expect(() => (a as unknown as number) + 1).toThrow(TypeError);
    expect(String(a)).toBe('10');
    expect(() => Amount.fromUnits(1 as unknown as bigint)).toThrow(TypeError);
  });

  it('reads stored values and refuses garbage from storage', () => {
    expect(Amount.fromDecimalString('1.500000000000000000').toString()).toBe('1.5');
    expect(Amount.fromDecimalString('-0.000000000000000001').toString()).toBe('-0.000000000000000001');
    expect(() => Amount.fromDecimalString('1e5')).toThrow(TypeError);
    expect(() => Amount.fromDecimalString('0.1234567890123456789')).toThrow(TypeError);
  });
});

describe('amountSchema (422 errors.amount)', () => {
  const body = z.object({ amount: amountSchema({ maxDecimals: 8, assetCode: 'BTC' }) });
  const errorsFor = (input: unknown): Record<string, string[]> => {
    try {
      parseInput(body, input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fields;
    }
    throw new Error('expected a ValidationError');
  };

  it('parses a decimal string into an exact Amount', () => {
    const parsed = parseInput(body, { amount: '0007.10000000' });
    expect(parsed.amount).toBeInstanceOf(Amount);
    expect(parsed.amount.toString()).toBe('7.1');
  });

  it('refuses a JSON number instead of rounding it, and every other wrong value with a clear message', () => {
    const cases: Array<[unknown, string]> = [
      [0.5, AMOUNT_MESSAGES.number],
      [1, AMOUNT_MESSAGES.number],
      [1e21, AMOUNT_MESSAGES.number],
      [null, AMOUNT_MESSAGES.type],
      [true, AMOUNT_MESSAGES.type],
      [['1'], AMOUNT_MESSAGES.type],
      [{ value: '1' }, AMOUNT_MESSAGES.type],
      ['', AMOUNT_MESSAGES.format],
      ['1e-8', AMOUNT_MESSAGES.format],
      ['-1', AMOUNT_MESSAGES.format],
      ['1,5', AMOUNT_MESSAGES.format],
      [' 1', AMOUNT_MESSAGES.format],
      ['0', AMOUNT_MESSAGES.notPositive],
      ['0.00000000', AMOUNT_MESSAGES.notPositive],
      ['0.000000001', 'The amount must not have more than 8 decimal places (the precision of BTC).'],
      ['1'.repeat(61), AMOUNT_MESSAGES.tooLarge],
    ];
    for (const [amount, message] of cases) {
      expect({ amount, errors: errorsFor({ amount }) }).toEqual({ amount, errors: { amount: [message] } });
    }
  });

  it('a missing amount is "required" (parseInput), and optional() works as usual', () => {
    expect(errorsFor({})).toEqual({ amount: ['This field is required.'] });
    const optional = z.object({ amount: amountSchema().optional() });
    expect(parseInput(optional, {})).toEqual({});
  });

  it('defaults to 18 places and positive; allowZero admits zero', () => {
    expect(parseInput(z.object({ a: amountSchema() }), { a: '0.000000000000000001' }).a.toString()).toBe('0.000000000000000001');
    expect(parseInput(z.object({ a: amountSchema({ allowZero: true }) }), { a: '0' }).a.isZero()).toBe(true);
    expect(() => parseInput(z.object({ a: amountSchema() }), { a: '0.0000000000000000001' })).toThrow(ValidationError);
  });

  it('amountDecimalsMessage checks an asset chosen by another field, on the places as written', () => {
    expect(amountDecimalsMessage('0.000000001', { decimals: 18, code: 'ETH' })).toBeUndefined();
    expect(amountDecimalsMessage('0.000000001', { decimals: 8, code: 'LTC' })).toBe('The amount must not have more than 8 decimal places (the precision of LTC).');
    expect(amountDecimalsMessage('1.00000000', { decimals: 8, code: 'BTC' })).toBeUndefined();
    expect(amountDecimalsMessage('1.000000000', { decimals: 8, code: 'BTC' })).toBe('The amount must not have more than 8 decimal places (the precision of BTC).');
  });

  it('counts the places as written, trailing zeros included (spec: "Must not have more decimal places than the asset\'s decimals.")', () => {
    expect(errorsFor({ amount: '1.000000000' })).toEqual({ amount: ['The amount must not have more than 8 decimal places (the precision of BTC).'] });
    expect(parseInput(body, { amount: '1.00000000' }).amount.toString()).toBe('1');
    expect(() => parseInput(z.object({ a: amountSchema() }), { a: `1.${'0'.repeat(19)}` })).toThrow(ValidationError);
    expect(writtenDecimalPlaces('12')).toBe(0);
    expect(writtenDecimalPlaces('1.50')).toBe(2);
  });

  it('decimalStringSchema documents response amounts as plain strings', () => {
    expect(decimalStringSchema.safeParse('0.5').success).toBe(true);
    expect(decimalStringSchema.safeParse(0.5).success).toBe(false);
    expect(decimalStringSchema.safeParse('5e-1').success).toBe(false);
  });
});

describe('AmountType (MikroORM)', () => {
  it('maps Amount <-> numeric(78,18) strings', () => {
    const type = new AmountType();
    expect(AMOUNT_COLUMN_TYPE).toBe('numeric(78,18)');
    expect(type.getColumnType({} as never, {} as never)).toBe('numeric(78,18)');
    expect(type.convertToDatabaseValue(Amount.parse('0.5'))).toBe('0.5');
    expect(type.convertToDatabaseValue(null)).toBeNull();
    expect(type.convertToJSValue('12.340000000000000000')!.toString()).toBe('12.34');
    expect(type.convertToJSValue(null)).toBeNull();
    expect(type.toJSON(Amount.parse('1'))).toBe('1');
  });
});
