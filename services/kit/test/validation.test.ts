import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { EMAIL_ADDRESS_PATTERN, MALFORMED_TEXT_MESSAGE, NUL_FREE_PATTERN, ValidationError, emailAddress, integerArgument, integerQueryParam, isWellFormedText, parseInput, wellFormedText } from '../src/index.js';

const createPaymentRequest = z.strictObject({
  asset_id: z.number().int(),
  title: z.string().max(191, { error: 'The title may not be greater than 191 characters.' }),
  lines: z.array(z.object({ amount: z.string().regex(/^\d+(\.\d+)?$/, { error: 'The amount must be a decimal string.' }) })).optional(),
});

function validationErrorOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseInput', () => {
  it('returns the parsed value when valid', () => {
    expect(parseInput(createPaymentRequest, { asset_id: 1, title: 'Order 7' })).toEqual({ asset_id: 1, title: 'Order 7' });
  });

  it('maps every issue to its dot-joined field path', () => {
    const error = validationErrorOf(() =>
      parseInput(createPaymentRequest, { title: 'x'.repeat(192), lines: [{ amount: '1.5' }, { amount: 2 }, { amount: '1e5' }] }),
    );
    expect(error.fields).toEqual({
      asset_id: ['This field is required.'],
      title: ['The title may not be greater than 191 characters.'],
      'lines.1.amount': [expect.stringMatching(/expected string/)],
      'lines.2.amount': ['The amount must be a decimal string.'],
    });
    expect(error.publicMessage).toBeUndefined();
  });

  it('names each unexpected key of a strict object', () => {
    const error = validationErrorOf(() => parseInput(createPaymentRequest, { asset_id: 1, title: 't', colour: 'red', size: 2 }));
    expect(error.fields).toEqual({ colour: ['This field is not allowed.'], size: ['This field is not allowed.'] });
  });

  it('names unexpected keys that are also Object.prototype names, as plain fields', () => {
    const input = JSON.parse('{"asset_id":1,"title":"t","toString":1,"constructor":2,"__proto__":3,"hasOwnProperty":4}') as unknown;
    const error = validationErrorOf(() => parseInput(createPaymentRequest, input));
    expect(Object.keys(error.fields).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    expect(error.fields['toString']).toEqual(['This field is not allowed.']);
    expect(JSON.parse(JSON.stringify({ fields: error.fields })).fields['__proto__']).toEqual(['This field is not allowed.']);
  });

  it('puts issues about the whole input under the root field', () => {
    expect(validationErrorOf(() => parseInput(createPaymentRequest, [1, 2])).fields).toEqual({
      input: [expect.stringMatching(/expected object/)],
    });
    expect(validationErrorOf(() => parseInput(createPaymentRequest, 'x', { rootField: 'body' })).fields).toHaveProperty('body');
  });

  it('keeps root refinements under the root field', () => {
    const range = z
      .object({ from: z.string(), to: z.string() })
      .refine((value) => value.from <= value.to, { error: 'from must not be after to' });
    expect(validationErrorOf(() => parseInput(range, { from: '2025-02-01', to: '2025-01-01' })).fields).toEqual({
      input: ['from must not be after to'],
    });
  });
});

describe('integerQueryParam', () => {
  const query = z.object({ per_page: integerQueryParam({ min: 1, max: 100, default: 25, description: 'Page size.' }) });

  it('parses digit strings within the bounds and defaults when absent', () => {
    expect(parseInput(query, {})).toEqual({ per_page: 25 });
    expect(parseInput(query, { per_page: '1' })).toEqual({ per_page: 1 });
    expect(parseInput(query, { per_page: '100' })).toEqual({ per_page: 100 });
    expect(parseInput(query, { per_page: '007' })).toEqual({ per_page: 7 });
  });

  it.each(['0', '101', '1.5', '-1', '1e2', ' 5', '', 'abc', '99999999999999999999', '9'.repeat(400)])('refuses %j with one message naming the range', (value) => {
    expect(validationErrorOf(() => parseInput(query, { per_page: value })).fields).toEqual({ per_page: ['Must be an integer between 1 and 100.'] });
  });

  it('refuses a repeated parameter (an array) on that field', () => {
    expect(Object.keys(validationErrorOf(() => parseInput(query, { per_page: ['1', '2'] })).fields)).toEqual(['per_page']);
  });

  it('is documented as the integer a client sends: bounds and default, no digit-string pattern', () => {
    expect(createSchema(query.shape.per_page, { io: 'input' }).schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Page size.' });
  });
});

describe('integerArgument', () => {
  const args = z.object({ perPage: integerArgument({ min: 1, max: 100, default: 25 }) });

  it('takes a GraphQL Int within the bounds, the default when null or absent', () => {
    expect(parseInput(args, {})).toEqual({ perPage: 25 });
    expect(parseInput(args, { perPage: null })).toEqual({ perPage: 25 });
    expect(parseInput(args, { perPage: 1 })).toEqual({ perPage: 1 });
    expect(parseInput(args, { perPage: 100 })).toEqual({ perPage: 100 });
  });

  it.each([0, -1, 101, 2 ** 31 - 1, 1.5, '5'])('refuses %j with integerQueryParam\'s message', (value) => {
    expect(validationErrorOf(() => parseInput(args, { perPage: value })).fields).toEqual({ perPage: ['Must be an integer between 1 and 100.'] });
  });
});

describe('wellFormedText', () => {
  const body = z.object({ name: wellFormedText(z.string().max(10)) });

  it.each(['a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800'])('refuses NUL and unpaired surrogates (%j)', (value) => {
    expect(validationErrorOf(() => parseInput(body, { name: value })).fields).toEqual({ name: [MALFORMED_TEXT_MESSAGE] });
  });

  it('accepts other text, surrogate pairs and control characters included', () => {
    for (const name of ['Straße', '😀', 'tab\there', '']) expect(isWellFormedText(name)).toBe(true);
    expect(parseInput(body, { name: '😀' })).toEqual({ name: '😀' });
  });

  it('documents the NUL rule as a pattern beside the schema\'s own bounds', () => {
    expect(createSchema(body.shape.name, { io: 'input' }).schema).toEqual({ type: 'string', maxLength: 10, pattern: NUL_FREE_PATTERN });
  });
});

describe('emailAddress', () => {
  const schema = emailAddress('Must be an e-mail address.');

  it.each(['jo@example.com', "o'neil+shop@mail.example.co", 'a_b-c@x1.example', `jo@${'e'.repeat(63)}.com`, `${'j'.repeat(64)}@example.com`])('accepts %s', (email) => {
    expect(schema.safeParse(email).success).toBe(true);
  });

  // zod's own format took the first three; the documents' `format: email` (and any mail host) does not.
  it.each(['jo@shop-.example.com', `jo@${'e'.repeat(64)}.com`, `${'j'.repeat(65)}@example.com`, 'jo@-shop.example.com', 'jo..x@example.com', 'jo@example', 'jo at example.com'])('refuses %s', (email) => {
    expect(schema.safeParse(email).error?.issues[0]?.message).toBe('Must be an e-mail address.');
  });

  it('is documented with its pattern', () => {
    expect(createSchema(schema).schema).toMatchObject({ format: 'email', pattern: EMAIL_ADDRESS_PATTERN.source });
  });
});
