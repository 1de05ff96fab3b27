import { describe, expect, it } from '@jest/globals';
import { GraphQLScalarType } from 'graphql';
import { enumMapping, mergeResolvers } from '../src/index.js';

describe('mergeResolvers', () => {
  const scalar = new GraphQLScalarType({ name: 'Decimal' });
  const accounts = { Query: { account: () => 'a' }, Mutation: { rotate: () => 'r' }, Account: { id: () => '1' } };
  const payments = { Decimal: scalar, Query: { payments: () => [] }, Mutation: { pay: () => 'p' } };

  it('keeps every field of every module, type by type (a spread would drop the first Query and Mutation)', () => {
    const merged = mergeResolvers(accounts, payments) as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(merged.Query!)).toEqual(['account', 'payments']);
    expect(Object.keys(merged.Mutation!)).toEqual(['rotate', 'pay']);
    expect(merged.Account).toEqual(accounts.Account);
    expect(merged.Decimal).toBe(scalar);
    // The inputs are not modified.
    expect(Object.keys(accounts.Query)).toEqual(['account']);
  });

  it('refuses a field or a scalar defined twice', () => {
    expect(() => mergeResolvers(accounts, { Query: { account: () => 'b' } })).toThrow('mergeResolvers: Query.account is defined twice');
    expect(() => mergeResolvers(payments, { Decimal: scalar })).toThrow('mergeResolvers: Decimal is defined twice');
  });
});

describe('enumMapping', () => {
  it('maps entity values to GraphQL values, and GraphQL arguments back', () => {
    const status = enumMapping({ active: 'ACTIVE', suspended: 'SUSPENDED' });
    expect(status('suspended')).toBe('SUSPENDED');
    expect(status.fromGraphql('ACTIVE')).toBe('active');
  });
});
