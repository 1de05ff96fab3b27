import { describe, expect, it } from '@jest/globals';
import { PLAN_CATALOGUE, addIntervals, installmentSchedule, isoDate, loanFeeBps, loanFeeCents, planById, planCovers } from '../src/modules/plans/index.js';

const purchase = new Date('2026-01-31T18:30:00Z');

describe('plan catalogue', () => {
  it('offers Pay in 4 from 50.00 to 1,000.00, interest free and on for a new merchant', () => {
    const payIn4 = planById('pay_in_4');
    expect(payIn4).toMatchObject({ installmentCount: 4, feeBps: 0, minAmountCents: 5_000, maxAmountCents: 100_000, enabledByDefault: true });
    expect(PLAN_CATALOGUE.filter((p) => p.enabledByDefault).map((p) => p.id)).toEqual(['pay_in_4']);
    expect([4_999, 5_000, 100_000, 100_001].map((a) => planCovers(payIn4, a))).toEqual([false, true, true, false]);
  });
});

describe('installment schedule', () => {
  it('adds up exactly to the total for every plan and many awkward amounts', () => {
    for (const plan of PLAN_CATALOGUE) {
      for (const principal of [plan.minAmountCents, plan.minAmountCents + 1, 33_333, 99_999, plan.maxAmountCents]) {
        for (const livemode of [true, false]) {
          const schedule = installmentSchedule(plan, principal, purchase, livemode);
          expect(schedule.totalCents).toBe(principal + loanFeeCents(plan, principal, livemode));
          expect(schedule.installments.reduce((sum, i) => sum + i.amountCents, 0)).toBe(schedule.totalCents);
          expect(schedule.installments.map((i) => i.installmentNumber)).toEqual(Array.from({ length: plan.installmentCount }, (_, i) => i + 1));
        }
      }
    }
  });

  it('puts the odd cents on the first installment', () => {
    const { installments } = installmentSchedule(planById('pay_in_4'), 10_003, purchase, true);
    expect(installments.map((i) => i.amountCents)).toEqual([2_503, 2_500, 2_500, 2_500]);
  });

  it('Pay in 4 is due at checkout and every 14 days after it', () => {
    const { installments } = installmentSchedule(planById('pay_in_4'), 10_000, purchase, true);
    expect(installments.map((i) => i.dueDate)).toEqual(['2026-01-31', '2026-02-14', '2026-02-28', '2026-03-14']);
  });

  it('monthly plans start one month after checkout and clamp to the end of short months', () => {
    const { installments } = installmentSchedule(planById('monthly_3'), 30_000, purchase, true);
    expect(installments.map((i) => i.dueDate)).toEqual(['2026-02-28', '2026-03-31', '2026-04-30']);
  });

  it('charges a live loan the plan fee in basis points of the principal, rounded half up', () => {
    expect(loanFeeCents(planById('monthly_6'), 20_000, true)).toBe(1_200);
    expect(loanFeeCents(planById('monthly_6'), 20_008, true)).toBe(1_200); // 1200.48
    expect(loanFeeCents(planById('monthly_6'), 20_009, true)).toBe(1_201); // 1200.54
    expect(installmentSchedule(planById('monthly_12'), 50_000, purchase, true)).toMatchObject({ feeCents: 6_000, totalCents: 56_000 });
  });

  it('spec "No fees apply in test mode.": a test-mode loan has no fee, its installments add up to the principal', () => {
    for (const plan of PLAN_CATALOGUE) {
      expect(loanFeeBps(plan, false)).toBe(0);
      expect(loanFeeBps(plan, true)).toBe(plan.feeBps);
      const schedule = installmentSchedule(plan, 50_001, purchase, false);
      expect([schedule.feeCents, schedule.totalCents]).toEqual([0, 50_001]);
      expect(schedule.installments.reduce((sum, i) => sum + i.amountCents, 0)).toBe(50_001);
    }
  });

  it('refuses a principal that is not a positive integer', () => {
    expect(() => installmentSchedule(planById('pay_in_4'), 0, purchase, true)).toThrow(/positive integer/);
    expect(() => installmentSchedule(planById('pay_in_4'), 10.5, purchase, true)).toThrow(/positive integer/);
  });

  it('steps across year ends in UTC', () => {
    expect(isoDate(addIntervals(new Date('2026-12-31T23:59:59Z'), { unit: 'month', count: 1 }, 2))).toBe('2027-02-28');
    expect(isoDate(addIntervals(new Date('2026-12-25T00:00:00Z'), { unit: 'day', count: 14 }, 1))).toBe('2027-01-08');
  });
});
