import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ValidationError, parseInput } from '../src/index.js';

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
