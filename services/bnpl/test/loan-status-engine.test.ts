// The loan lifecycle's pure parts: every transition and refusal of the status engine, the collection schedule (when
// each step falls due) and the test payment methods of the simulated processor.
import { describe, expect, it } from '@jest/globals';
import {
  CLOSED_LOAN_STATUSES,
  COLLECTION_ATTEMPT_DAYS,
  DEFAULT_AFTER_DAYS,
  LOAN_STATUSES,
  WRITE_OFF_AFTER_DAYS,
  applyLoanTrigger,
  attemptInstant,
  nextLoanStep,
  paymentMethodFor,
  simulatedPaymentProcessor,
  type LoanState,
  type LoanStatus,
  type LoanTrigger,
} from '../src/modules/loans/index.js';

const at = new Date('2026-12-01T00:00:00Z');
const earlier = new Date('2026-11-01T00:00:00Z');
const DAY = 86_400_000;
const state = (status: LoanStatus, more: Partial<LoanState> = {}): LoanState => ({ status, disbursedAt: null, arrearsSince: null, defaultedAt: null, ...more });
const paid = (unpaidLeft: number, missedUnpaidLeft = 0): LoanTrigger => ({ kind: 'installment_paid', unpaidLeft, missedUnpaidLeft });
/** The statuses a trigger is refused in, given the ones it is allowed in. */
const others = (allowed: LoanStatus[]) => LOAN_STATUSES.filter((s) => !allowed.includes(s));

describe('loan status engine', () => {
  it('has exactly the spec statuses; paid_off, written_off and cancelled are closed', () => {
    expect(LOAN_STATUSES).toEqual(['pending', 'approved', 'funded', 'active', 'paid_off', 'in_arrears', 'defaulted', 'written_off', 'cancelled']);
    expect(CLOSED_LOAN_STATUSES).toEqual(['paid_off', 'written_off', 'cancelled']);
  });

  it('fund: approved → funded with disbursed_at and loan.funded; refused in every other status', () => {
    expect(applyLoanTrigger(state('approved'), { kind: 'fund', at })).toEqual({ ok: true, state: state('funded', { disbursedAt: at }), events: ['loan.funded'] });
    for (const status of others(['approved'])) expect(applyLoanTrigger(state(status), { kind: 'fund', at })).toMatchObject({ ok: false, status });
  });

  it('cancel: pending or approved → cancelled, no event (loan.cancelled is reserved); refused once funded', () => {
    for (const status of ['pending', 'approved'] as const) expect(applyLoanTrigger(state(status), { kind: 'cancel' })).toEqual({ ok: true, state: state('cancelled'), events: [] });
    for (const status of others(['pending', 'approved'])) expect(applyLoanTrigger(state(status), { kind: 'cancel' })).toMatchObject({ ok: false, status });
  });

  it('installment paid: funded or active → active; the last one → paid_off with loan.completed', () => {
    expect(applyLoanTrigger(state('funded'), paid(3))).toEqual({ ok: true, state: state('active'), events: ['installment.paid'] });
    expect(applyLoanTrigger(state('active'), paid(1))).toEqual({ ok: true, state: state('active'), events: ['installment.paid'] });
    expect(applyLoanTrigger(state('active'), paid(0))).toEqual({ ok: true, state: state('paid_off'), events: ['installment.paid', 'loan.completed'] });
    expect(applyLoanTrigger(state('funded'), paid(0))).toEqual({ ok: true, state: state('paid_off'), events: ['installment.paid', 'loan.completed'] });
  });

  it('installment paid in arrears: cured (no missed installment left) → active; otherwise stays in arrears', () => {
    const arrears = state('in_arrears', { arrearsSince: earlier });
    expect(applyLoanTrigger(arrears, paid(2, 0))).toEqual({ ok: true, state: state('active'), events: ['installment.paid'] });
    expect(applyLoanTrigger(arrears, paid(2, 1))).toEqual({ ok: true, state: arrears, events: ['installment.paid'] });
    expect(applyLoanTrigger(arrears, paid(0))).toEqual({ ok: true, state: state('paid_off'), events: ['installment.paid', 'loan.completed'] });
  });

  it('installment paid on a defaulted loan stays defaulted until the last one closes it', () => {
    const defaulted = state('defaulted', { arrearsSince: earlier, defaultedAt: at });
    expect(applyLoanTrigger(defaulted, paid(1, 1))).toEqual({ ok: true, state: defaulted, events: ['installment.paid'] });
    expect(applyLoanTrigger(defaulted, paid(0))).toEqual({ ok: true, state: { ...defaulted, status: 'paid_off', arrearsSince: null }, events: ['installment.paid', 'loan.completed'] });
  });

  it('installment paid: refused before funding and once closed, and with inconsistent counts', () => {
    for (const status of others(['funded', 'active', 'in_arrears', 'defaulted'])) expect(applyLoanTrigger(state(status), paid(1))).toMatchObject({ ok: false, status });
    expect(applyLoanTrigger(state('active'), paid(1, 2))).toMatchObject({ ok: false, reason: 'inconsistent installment counts' });
    expect(applyLoanTrigger(state('active'), paid(-1))).toMatchObject({ ok: false });
  });

  it('installment missed: funded, active or in arrears → in_arrears with installment.missed; the default clock keeps its start', () => {
    for (const status of ['funded', 'active'] as const) {
      expect(applyLoanTrigger(state(status), { kind: 'installment_missed', at })).toEqual({ ok: true, state: state('in_arrears', { arrearsSince: at }), events: ['installment.missed'] });
    }
    expect(applyLoanTrigger(state('in_arrears', { arrearsSince: earlier }), { kind: 'installment_missed', at })).toEqual({
      ok: true,
      state: state('in_arrears', { arrearsSince: earlier }),
      events: ['installment.missed'],
    });
    for (const status of others(['funded', 'active', 'in_arrears'])) expect(applyLoanTrigger(state(status), { kind: 'installment_missed', at })).toMatchObject({ ok: false, status });
  });

  it('default: in_arrears → defaulted; write-off: defaulted → written_off; no events; refused elsewhere', () => {
    expect(applyLoanTrigger(state('in_arrears', { arrearsSince: earlier }), { kind: 'default', at })).toEqual({ ok: true, state: state('defaulted', { arrearsSince: earlier, defaultedAt: at }), events: [] });
    for (const status of others(['in_arrears'])) expect(applyLoanTrigger(state(status), { kind: 'default', at })).toMatchObject({ ok: false, status });
    expect(applyLoanTrigger(state('defaulted', { defaultedAt: at }), { kind: 'write_off' })).toEqual({ ok: true, state: state('written_off', { defaultedAt: at }), events: [] });
    for (const status of others(['defaulted'])) expect(applyLoanTrigger(state(status), { kind: 'write_off' })).toMatchObject({ ok: false, status });
  });
});

describe('collection schedule', () => {
  const installment = (id: string, dueDate: string, status: 'pending' | 'paid' | 'missed' = 'pending', attemptCount = 0) => ({ id, dueDate, status, attemptCount });

  it('attempts at 00:00 UTC of the due date, then 1, 3 and 7 days past due; none after the 4th', () => {
    expect(COLLECTION_ATTEMPT_DAYS).toEqual([0, 1, 3, 7]);
    expect([1, 2, 3, 4, 5].map((n) => attemptInstant('2026-12-10', n)?.toISOString() ?? null)).toEqual([
      '2026-12-10T00:00:00.000Z',
      '2026-12-11T00:00:00.000Z',
      '2026-12-13T00:00:00.000Z',
      '2026-12-17T00:00:00.000Z',
      null,
    ]);
  });

  it('an approved loan is funded at once; closed and pending loans have no next step', () => {
    expect(nextLoanStep(state('approved'), [installment('a', '2026-12-10')])).toEqual({ kind: 'fund', at: null });
    for (const status of ['pending', 'paid_off', 'written_off', 'cancelled'] as const) expect(nextLoanStep(state(status), [installment('a', '2026-12-10')])).toBeNull();
  });

  it('the earliest next attempt of a pending installment; paid and missed ones are not debited', () => {
    const installments = [installment('a', '2026-12-01', 'paid', 1), installment('b', '2026-12-15', 'pending', 1), installment('c', '2026-12-10', 'missed', 4), installment('d', '2026-12-29')];
    expect(nextLoanStep(state('active'), installments)).toEqual({ kind: 'attempt', installmentId: 'b', attemptNumber: 2, at: new Date('2026-12-16T00:00:00Z') });
  });

  it('an installment due before the loan was funded (a down payment at checkout) is debited when it is funded', () => {
    const fundedAt = new Date('2026-12-10T15:30:00Z');
    expect(nextLoanStep(state('funded', { disbursedAt: fundedAt }), [installment('a', '2026-12-10')])).toEqual({ kind: 'attempt', installmentId: 'a', attemptNumber: 1, at: fundedAt });
    expect(nextLoanStep(state('funded', { disbursedAt: fundedAt }), [installment('a', '2026-12-10', 'pending', 1)])).toMatchObject({ at: new Date('2026-12-11T00:00:00Z') });
  });

  it('in arrears: the default deadline competes with the attempts; defaulted: only the write-off (collections stop)', () => {
    const arrears = state('in_arrears', { arrearsSince: at });
    expect(nextLoanStep(arrears, [])).toEqual({ kind: 'default', at: new Date(at.getTime() + DEFAULT_AFTER_DAYS * DAY) });
    expect(nextLoanStep(arrears, [installment('b', '2026-12-15')])).toMatchObject({ kind: 'attempt', installmentId: 'b' });
    expect(nextLoanStep(state('defaulted', { defaultedAt: at }), [installment('b', '2026-12-15')])).toEqual({ kind: 'write_off', at: new Date(at.getTime() + WRITE_OFF_AFTER_DAYS * DAY) });
  });
});

describe('test payment methods', () => {
  it('checkout records a method by the shopper e-mail in test mode; live loans use the card on file', () => {
    expect(paymentMethodFor('jo@example.com', false)).toBe('pm_test_success');
    expect(paymentMethodFor('fail_once@example.com', false)).toBe('pm_test_fail_once');
    expect(paymentMethodFor('Jo+Fail_Once@example.com', false)).toBe('pm_test_fail_once');
    expect(paymentMethodFor('always_fails@example.com', false)).toBe('pm_test_always_fails');
    expect(paymentMethodFor('jo+always_fails@example.com', false)).toBe('pm_test_always_fails');
    expect(paymentMethodFor('jo+always_fails@example.com', true)).toBe('pm_card_on_file');
    expect(paymentMethodFor('notfail_once@example.com', false)).toBe('pm_test_success');
  });

  it('the simulated processor: success always, fail-once declines attempt 1 only, always-fails declines every attempt', async () => {
    const debit = (paymentMethod: string, attemptNumber: number) => simulatedPaymentProcessor.debit({ paymentMethod, attemptNumber, amountCents: 100, currency: 'USD', idempotencyKey: `k:${attemptNumber}` });
    const outcomes = async (method: string) => Promise.all([1, 2, 3, 4].map(async (n) => (await debit(method, n)).outcome));
    expect(await outcomes('pm_test_success')).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(await outcomes('pm_test_fail_once')).toEqual(['declined', 'succeeded', 'succeeded', 'succeeded']);
    expect(await outcomes('pm_test_always_fails')).toEqual(['declined', 'declined', 'declined', 'declined']);
    expect(await outcomes('pm_card_on_file')).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(await debit('pm_test_always_fails', 1)).toEqual({ outcome: 'declined', declineCode: 'insufficient_funds' });
  });
});
