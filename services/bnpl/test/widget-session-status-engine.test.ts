import { describe, expect, it } from '@jest/globals';
import { applyAuthorization, applyCancel, applyEligibility, applyExpiry, effectiveStatus, SESSION_STATUSES, type SessionState, type SessionStatus } from '../src/modules/widget-sessions/index.js';

const now = new Date('2026-11-23T12:00:00Z');
const live = (status: SessionStatus): SessionState => ({ status, expiresAt: new Date(now.getTime() + 60_000) });
const past = (status: SessionStatus): SessionState => ({ status, expiresAt: new Date(now.getTime() - 1) });

describe('widget session status engine', () => {
  it('has exactly the spec statuses', () => {
    expect(SESSION_STATUSES).toEqual(['initialized', 'eligible', 'ineligible', 'authorized', 'cancelled', 'expired']);
  });

  it('an open session past expires_at reads expired (the deadline itself counts); final ones keep their status', () => {
    expect(effectiveStatus({ status: 'eligible', expiresAt: now }, now)).toBe('expired');
    expect(['initialized', 'eligible', 'ineligible'].map((s) => effectiveStatus(past(s as SessionStatus), now))).toEqual(['expired', 'expired', 'expired']);
    expect(['authorized', 'cancelled'].map((s) => effectiveStatus(past(s as SessionStatus), now))).toEqual(['authorized', 'cancelled']);
  });

  it('eligibility: initialized → eligible or ineligible; a confirm may decline an eligible shopper; ineligible stays ineligible', () => {
    expect(applyEligibility(live('initialized'), 'eligible', now)).toEqual({ ok: true, state: live('eligible') });
    expect(applyEligibility(live('initialized'), 'ineligible', now)).toEqual({ ok: true, state: live('ineligible') });
    expect(applyEligibility(live('eligible'), 'ineligible', now)).toEqual({ ok: true, state: live('ineligible') });
    expect(applyEligibility(live('ineligible'), 'eligible', now)).toEqual({ ok: false, status: 'ineligible', reason: 'not_eligible' });
    expect(applyEligibility(past('initialized'), 'eligible', now)).toEqual({ ok: false, status: 'expired', reason: 'final' });
    expect(applyEligibility(live('authorized'), 'eligible', now)).toEqual({ ok: false, status: 'authorized', reason: 'final' });
  });

  it('authorization: only an eligible session before its deadline', () => {
    expect(applyAuthorization(live('eligible'), now)).toEqual({ ok: true, state: live('authorized') });
    expect(applyAuthorization(live('initialized'), now)).toEqual({ ok: false, status: 'initialized', reason: 'not_eligible' });
    expect(applyAuthorization(live('ineligible'), now)).toEqual({ ok: false, status: 'ineligible', reason: 'not_eligible' });
    expect(applyAuthorization(past('eligible'), now)).toEqual({ ok: false, status: 'expired', reason: 'final' });
    expect(applyAuthorization(live('cancelled'), now)).toEqual({ ok: false, status: 'cancelled', reason: 'final' });
    expect(applyAuthorization(live('authorized'), now)).toEqual({ ok: false, status: 'authorized', reason: 'final' });
  });

  it('cancel: from initialized, eligible and ineligible; authorized, cancelled and expired cannot be cancelled', () => {
    for (const s of ['initialized', 'eligible', 'ineligible'] as const) expect(applyCancel(live(s), now)).toEqual({ ok: true, state: live('cancelled') });
    for (const s of ['authorized', 'cancelled', 'expired'] as const) expect(applyCancel(live(s), now)).toEqual({ ok: false, status: s, reason: 'final' });
    expect(applyCancel(past('eligible'), now)).toEqual({ ok: false, status: 'expired', reason: 'final' });
  });

  it('expiry: stores expired for an open session past its deadline only', () => {
    expect(applyExpiry(past('initialized'), now)).toEqual({ ok: true, state: past('expired') });
    expect(applyExpiry(live('eligible'), now)).toEqual({ ok: false, status: 'eligible', reason: 'final' });
    expect(applyExpiry(past('authorized'), now)).toEqual({ ok: false, status: 'authorized', reason: 'final' });
  });
});
