// Every row of the spec's transitions table and every "not shown" decision (README Decisions), on the pure engine.
import { describe, expect, it } from '@jest/globals';
import { Amount } from '../src/money/index.js';
import {
  amountExcess,
  amountOutstanding,
  applyCancel,
  applyExpiry,
  applyPayment,
  applyReversal,
  effectiveStatus,
  isSettled,
  type RequestState,
} from '../src/modules/payment-requests/status-engine.js';

const a = (text: string) => Amount.parse(text);
const created = new Date('2026-07-01T10:00:00.000Z');
const deadline = new Date('2026-07-01T11:00:00.000Z');
const before = new Date('2026-07-01T10:30:00.000Z');
const after = new Date('2026-07-01T11:00:01.000Z');

const invoice = (over: Partial<RequestState> = {}): RequestState => ({
  type: 'invoice',
  status: 'pending',
  amountRequested: a('1'),
  amountPaid: Amount.ZERO,
  expiresAt: deadline,
  paidAt: null,
  ...over,
});
const donation = (over: Partial<RequestState> = {}): RequestState => ({
  type: 'donation',
  status: 'pending',
  amountRequested: null,
  amountPaid: Amount.ZERO,
  expiresAt: null,
  paidAt: null,
  ...over,
});
const view = (state: RequestState) => ({ status: state.status, paid: state.amountPaid.toString(), paidAt: state.paidAt?.toISOString() ?? null });

describe('status engine: transitions table', () => {
  it('creation: pending, nothing paid, outstanding = requested', () => {
    const state = invoice();
    expect(effectiveStatus(state, created)).toBe('pending');
    expect(amountOutstanding(state)?.toString()).toBe('1');
  });

  it('confirmed payment below amount_requested -> partial, not settled, no event', () => {
    const { state, events } = applyPayment(invoice(), a('0.4'), before);
    expect(view(state)).toEqual({ status: 'partial', paid: '0.4', paidAt: null });
    expect(amountOutstanding(state)?.toString()).toBe('0.6');
    expect(isSettled(state.status)).toBe(false);
    expect(events).toEqual([]);
  });

  it('confirmed total equal to amount_requested -> paid, paid_at set, payment.paid (also from partial)', () => {
    const once = applyPayment(invoice(), a('1'), before);
    expect(view(once.state)).toEqual({ status: 'paid', paid: '1', paidAt: before.toISOString() });
    expect(once.events).toEqual(['payment.paid']);
    const partial = applyPayment(invoice(), a('0.25'), created).state;
    const rest = applyPayment(partial, a('0.75'), before);
    expect(view(rest.state)).toEqual({ status: 'paid', paid: '1', paidAt: before.toISOString() });
    expect(amountOutstanding(rest.state)?.toString()).toBe('0');
    expect(rest.events).toEqual(['payment.paid']);
  });

  it('confirmed total above amount_requested -> overpaid, paid_at set, excess flagged; the event is payment.paid', () => {
    const { state, events } = applyPayment(invoice(), a('1.5'), before);
    expect(view(state)).toEqual({ status: 'overpaid', paid: '1.5', paidAt: before.toISOString() });
    expect(amountExcess(state).toString()).toBe('0.5');
    expect(amountOutstanding(state)?.toString()).toBe('0');
    expect(events).toEqual(['payment.paid']);
  });

  it('a further payment on a paid request -> overpaid, paid_at kept, no second payment.paid', () => {
    const paid = applyPayment(invoice(), a('1'), created).state;
    const { state, events } = applyPayment(paid, a('0.1'), before);
    expect(view(state)).toEqual({ status: 'overpaid', paid: '1.1', paidAt: created.toISOString() });
    expect(events).toEqual([]);
  });

  it('deadline passes on pending or partial -> expired with payment.expired (amount_paid keeps the partial amount)', () => {
    expect(applyExpiry(invoice(), after)).toEqual({ state: invoice({ status: 'expired' }), events: ['payment.expired'] });
    const partial = invoice({ status: 'partial', amountPaid: a('0.3') });
    const { state, events } = applyExpiry(partial, after);
    expect(view(state)).toEqual({ status: 'expired', paid: '0.3', paidAt: null });
    expect(events).toEqual(['payment.expired']);
  });

  it('the deadline does not touch paid, overpaid, expired, cancelled requests or donations; nor before it passes', () => {
    for (const status of ['paid', 'overpaid', 'expired', 'cancelled'] as const) {
      expect(applyExpiry(invoice({ status }), after).events).toEqual([]);
    }
    expect(applyExpiry(invoice(), before).events).toEqual([]);
    expect(applyExpiry(donation(), new Date('2099-01-01T00:00:00Z')).events).toEqual([]);
  });

  it('a pending request past its deadline reads expired before anything stored it; the deadline instant counts', () => {
    expect(effectiveStatus(invoice(), before)).toBe('pending');
    expect(effectiveStatus(invoice(), deadline)).toBe('expired');
    expect(effectiveStatus(invoice({ status: 'partial' }), after)).toBe('expired');
    expect(effectiveStatus(invoice({ status: 'paid' }), after)).toBe('paid');
  });

  it('payment after expiry: credited, status stays expired, paid_at stays null, payment.late and never payment.paid', () => {
    const expired = invoice({ status: 'expired' });
    const { state, events } = applyPayment(expired, a('1'), after);
    expect(view(state)).toEqual({ status: 'expired', paid: '1', paidAt: null });
    expect(events).toEqual(['payment.late']);
    expect(applyPayment(state, a('2'), after).events).toEqual(['payment.late']);
  });

  it('payment after a deadline nobody stored yet: expires first (payment.expired) and is late (payment.late)', () => {
    const { state, events } = applyPayment(invoice({ status: 'partial', amountPaid: a('0.5') }), a('0.5'), after);
    expect(view(state)).toEqual({ status: 'expired', paid: '1', paidAt: null });
    expect(events).toEqual(['payment.expired', 'payment.late']);
  });

  it('cancel of an unsettled request (pending, partial, expired) -> cancelled', () => {
    for (const status of ['pending', 'partial', 'expired'] as const) {
      expect(applyCancel(invoice({ status }))).toEqual({ ok: true, state: invoice({ status: 'cancelled' }) });
    }
  });

  it('cancel of a settled request (paid, overpaid) is refused and changes nothing', () => {
    expect(isSettled('paid')).toBe(true);
    expect(isSettled('overpaid')).toBe(true);
    for (const status of ['pending', 'partial', 'expired', 'cancelled'] as const) expect(isSettled(status)).toBe(false);
    expect(applyCancel(invoice({ status: 'paid' }))).toEqual({ ok: false, reason: 'settled' });
    expect(applyCancel(invoice({ status: 'overpaid' }))).toEqual({ ok: false, reason: 'settled' });
    expect(applyCancel(donation({ status: 'paid' }))).toEqual({ ok: false, reason: 'settled' });
  });

  it('a payment to a cancelled request is credited, stays cancelled, sends nothing', () => {
    const { state, events } = applyPayment(invoice({ status: 'cancelled' }), a('1'), before);
    expect(view(state)).toEqual({ status: 'cancelled', paid: '1', paidAt: null });
    expect(events).toEqual([]);
  });
});

describe('status engine: donation links', () => {
  it('have no amount, no deadline, never expire', () => {
    expect(amountOutstanding(donation())).toBeNull();
    expect(effectiveStatus(donation(), new Date('2099-01-01T00:00:00Z'))).toBe('pending');
  });

  it('the first counted payment makes a donation paid (paid_at, payment.paid); later ones are credited silently', () => {
    const first = applyPayment(donation(), a('0.01'), created);
    expect(view(first.state)).toEqual({ status: 'paid', paid: '0.01', paidAt: created.toISOString() });
    expect(first.events).toEqual(['payment.paid']);
    const second = applyPayment(first.state, a('0.02'), before);
    expect(view(second.state)).toEqual({ status: 'paid', paid: '0.03', paidAt: created.toISOString() });
    expect(second.events).toEqual([]);
  });

  it('refuses a non-positive payment', () => {
    expect(() => applyPayment(invoice(), Amount.ZERO, before)).toThrow(RangeError);
  });
});

describe('applyReversal (a counted payment taken back by a reorg; README Decisions "Reorg")', () => {
  it('a paid invoice no longer covered is open again within its deadline: partial, paid_at cleared, reopened, no event', () => {
    const paid = invoice({ status: 'paid', amountPaid: a('1'), paidAt: before });
    expect(applyReversal(paid, a('0.4'), before)).toEqual({ state: { ...paid, status: 'partial', amountPaid: a('0.6'), paidAt: null }, events: [], reopened: true });
    expect(applyReversal(paid, a('1'), before)).toEqual({ state: { ...paid, status: 'pending', amountPaid: Amount.ZERO, paidAt: null }, events: [], reopened: true });
  });

  it('past its deadline the reopened invoice expires at once with payment.expired, and needs no workflow', () => {
    const paid = invoice({ status: 'paid', amountPaid: a('1'), paidAt: before });
    expect(applyReversal(paid, a('0.4'), after)).toEqual({ state: { ...paid, status: 'expired', amountPaid: a('0.6'), paidAt: null }, events: ['payment.expired'], reopened: false });
  });

  it('an overpaid invoice still covered stays settled: overpaid above the amount, paid at it', () => {
    const overpaid = invoice({ status: 'overpaid', amountPaid: a('1.5'), paidAt: before });
    expect(applyReversal(overpaid, a('0.2'), after)).toEqual({ state: { ...overpaid, amountPaid: a('1.3') }, events: [], reopened: false });
    expect(applyReversal(overpaid, a('0.5'), after)).toEqual({ state: { ...overpaid, status: 'paid', amountPaid: a('1') }, events: [], reopened: false });
  });

  it('a partial invoice goes back to pending at zero; expired and cancelled keep their status', () => {
    const partial = invoice({ status: 'partial', amountPaid: a('0.3') });
    expect(applyReversal(partial, a('0.3'), before)).toMatchObject({ state: { status: 'pending', amountPaid: Amount.ZERO }, events: [], reopened: false });
    for (const status of ['expired', 'cancelled'] as const) {
      const closed = invoice({ status, amountPaid: a('0.3') });
      expect(applyReversal(closed, a('0.1'), after)).toEqual({ state: { ...closed, amountPaid: a('0.2') }, events: [], reopened: false });
    }
  });

  it('a donation is pending again only when nothing paid is left', () => {
    const paid = donation({ status: 'paid', amountPaid: a('0.3'), paidAt: before });
    expect(applyReversal(paid, a('0.1'), before).state).toMatchObject({ status: 'paid', paidAt: before });
    expect(applyReversal(paid, a('0.3'), before).state).toMatchObject({ status: 'pending', paidAt: null, amountPaid: Amount.ZERO });
  });

  it('refuses a zero amount or more than was paid', () => {
    expect(() => applyReversal(invoice({ status: 'partial', amountPaid: a('0.3') }), a('0.4'), before)).toThrow(RangeError);
    expect(() => applyReversal(invoice({ status: 'partial', amountPaid: a('0.3') }), Amount.ZERO, before)).toThrow(RangeError);
  });
});
