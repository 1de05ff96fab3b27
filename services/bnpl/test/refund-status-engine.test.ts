// The refund status engine and its pure rules: every transition, the refundable loan statuses, the principal cap and
// how a processed refund is spread over the installments.
import { describe, expect, it } from '@jest/globals';
import { LOAN_STATUSES } from '../src/modules/loans/index.js';
import { REFUND_STATUSES, allocateRefund, applyRefundStep, isFinalRefundStatus, isRefundable, refundableCents } from '../src/modules/refunds/index.js';

describe('applyRefundStep', () => {
  it('moves requested → processing → processed or failed, and refuses everything else', () => {
    const allowed = new Map([
      ['requested:begin', 'processing'],
      ['processing:succeed', 'processed'],
      ['processing:fail', 'failed'],
    ]);
    for (const status of REFUND_STATUSES) {
      for (const step of ['begin', 'succeed', 'fail'] as const) {
        const next = allowed.get(`${status}:${step}`);
        expect(applyRefundStep(status, step)).toEqual(next ? { ok: true, status: next } : { ok: false, status });
      }
    }
    expect(REFUND_STATUSES.filter(isFinalRefundStatus)).toEqual(['processed', 'failed']);
  });
});

describe('refundable loans and amounts', () => {
  it('accepts approved, funded, active, in_arrears and paid_off loans only', () => {
    expect(LOAN_STATUSES.filter(isRefundable)).toEqual(['approved', 'funded', 'active', 'paid_off', 'in_arrears']);
  });

  it('counts every refund that has not failed against the principal, never below zero', () => {
    const refunds = [
      { amountCents: 300, status: 'requested' as const },
      { amountCents: 200, status: 'processing' as const },
      { amountCents: 100, status: 'processed' as const },
      { amountCents: 5_000, status: 'failed' as const },
    ];
    expect(refundableCents(1_000, refunds)).toBe(400);
    expect(refundableCents(500, refunds)).toBe(0);
  });
});

describe('allocateRefund', () => {
  const installments = [
    { id: 'a', installmentNumber: 1, amountCents: 2_503, paid: true },
    { id: 'b', installmentNumber: 2, amountCents: 2_500, paid: false },
    { id: 'c', installmentNumber: 3, amountCents: 2_500, paid: false },
    { id: 'd', installmentNumber: 4, amountCents: 2_500, paid: false },
  ];

  it('cuts the last unpaid installments first', () => {
    expect(allocateRefund(3_000, installments)).toEqual({
      reductions: [
        { id: 'd', fromCents: 2_500, toCents: 0 },
        { id: 'c', fromCents: 2_500, toCents: 2_000 },
      ],
      returnedToShopperCents: 0,
    });
  });

  it('returns what exceeds the unpaid installments to the shopper; paid ones are never touched', () => {
    const { reductions, returnedToShopperCents } = allocateRefund(10_003, installments);
    expect(reductions.map((r) => r.id)).toEqual(['d', 'c', 'b']);
    expect(returnedToShopperCents).toBe(2_503);
  });

  it('skips installments already cut to zero', () => {
    expect(allocateRefund(100, [{ id: 'x', installmentNumber: 2, amountCents: 0, paid: false }, { id: 'y', installmentNumber: 1, amountCents: 50, paid: false }])).toEqual({
      reductions: [{ id: 'y', fromCents: 50, toCents: 0 }],
      returnedToShopperCents: 50,
    });
  });
});
