// The sales list's cursor: pure functions, unit tested.
import { describe, expect, it } from '@jest/globals';
import { decodeSalesCursor, encodeSalesCursor } from '../src/modules/sales/index.js';

const position = { createdAt: '2026-03-01T12:34:56.123456Z', loanId: '0b6c1c1e-8f0a-4c43-9a8e-5d2b7f3c9e10' };
const raw = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('sales cursor', () => {
  it('round-trips a position, microseconds included, as an opaque URL-safe token', () => {
    const cursor = encodeSalesCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSalesCursor(cursor)).toEqual(position);
  });

  it('refuses anything it did not make', () => {
    const refused = [
      '',
      'not base64!',
      'x'.repeat(200),
      raw(`s2|${position.createdAt}|${position.loanId}`),
      raw(`s1|${position.createdAt}`),
      raw(`s1|${position.createdAt}|${position.loanId}|extra`),
      raw(`s1|2026-03-01T12:34:56.123Z|${position.loanId}`),
      raw(`s1|2026-02-30T12:34:56.123456Z|${position.loanId}`),
      raw(`s1|2026-03-01T24:00:00.000000Z|${position.loanId}`),
      raw(`s1|${position.createdAt}|0B6C1C1E-8F0A-4C43-9A8E-5D2B7F3C9E10`),
      raw(`s1|${position.createdAt}|'); drop table loans; --`),
    ];
    for (const cursor of refused) expect([cursor, decodeSalesCursor(cursor)]).toEqual([cursor, null]);
  });
});
