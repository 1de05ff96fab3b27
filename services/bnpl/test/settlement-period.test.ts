// The pure settlement rules: which period a cut closes for each cadence, the batch name, each sale's MDR rounding, the
// net and the payout step.
import { describe, expect, it } from '@jest/globals';
import { applyPayout, batchName, closedPeriod, saleMdrCents, settlementNet } from '../src/modules/settlements/index.js';

describe('closedPeriod (UTC)', () => {
  it('daily: the day before, whatever the time of the cut', () => {
    expect(closedPeriod('daily', new Date('2026-11-25T00:15:00Z'))).toEqual({ start: '2026-11-24', end: '2026-11-25' });
    expect(closedPeriod('daily', new Date('2026-11-25T23:59:59.999Z'))).toEqual({ start: '2026-11-24', end: '2026-11-25' });
    expect(closedPeriod('daily', new Date('2027-01-01T00:15:00Z'))).toEqual({ start: '2026-12-31', end: '2027-01-01' });
  });

  it('weekly: the ISO week (Monday to Sunday) before the one the cut falls in', () => {
    // 2026-11-23 is a Monday.
    expect(closedPeriod('weekly', new Date('2026-11-23T00:15:00Z'))).toEqual({ start: '2026-11-16', end: '2026-11-23' });
    expect(closedPeriod('weekly', new Date('2026-11-29T23:00:00Z'))).toEqual({ start: '2026-11-16', end: '2026-11-23' });
    expect(closedPeriod('weekly', new Date('2026-11-30T00:15:00Z'))).toEqual({ start: '2026-11-23', end: '2026-11-30' });
  });

  it('monthly: the calendar month before, across a year end and February', () => {
    expect(closedPeriod('monthly', new Date('2026-12-01T00:15:00Z'))).toEqual({ start: '2026-11-01', end: '2026-12-01' });
    expect(closedPeriod('monthly', new Date('2027-01-15T12:00:00Z'))).toEqual({ start: '2026-12-01', end: '2027-01-01' });
    expect(closedPeriod('monthly', new Date('2028-03-01T00:15:00Z'))).toEqual({ start: '2028-02-01', end: '2028-03-01' });
  });
});

describe('batch figures', () => {
  it('names a batch by its first and last day, currency and mode', () => {
    expect(batchName({ start: '2026-11-16', end: '2026-11-23' }, 'USD', true)).toBe('2026-11-16..2026-11-22-USD');
    expect(batchName({ start: '2026-11-24', end: '2026-11-25' }, 'EUR', false)).toBe('2026-11-24..2026-11-24-EUR-test');
  });

  it("rounds each sale's MDR half up to the cent; none in test mode", () => {
    expect(saleMdrCents(10_000, 290, true)).toBe(290);
    expect(saleMdrCents(10_003, 290, true)).toBe(290); // 290.087 → 290
    expect(saleMdrCents(10_017, 290, true)).toBe(290); // 290.493 → 290
    expect(saleMdrCents(10_018, 290, true)).toBe(291); // 290.522 → 291
    expect(saleMdrCents(50, 100, true)).toBe(1); // 0.5 → 1 (half up)
    expect(saleMdrCents(10_000, 290, false)).toBe(0);
  });

  it('net = gross − mdr − refunds + adjustments, negative when the merchant owes', () => {
    expect(settlementNet({ grossCents: 20_000, mdrCents: 580, refundsCents: 1_000, adjustmentsCents: 250 })).toBe(18_670);
    expect(settlementNet({ grossCents: 0, mdrCents: 0, refundsCents: 5_000, adjustmentsCents: 0 })).toBe(-5_000);
  });

  it('pays a pending batch once', () => {
    expect(applyPayout('pending')).toEqual({ ok: true, status: 'paid' });
    expect(applyPayout('paid')).toEqual({ ok: false, status: 'paid' });
  });
});
