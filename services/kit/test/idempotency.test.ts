// The kit's Idempotency-Key helpers (shared by crypto's payment requests and bnpl's widget sessions): the header's
// rules, the stable body fingerprint and the refusal of a reused key. Their use over HTTP, concurrency included, is
// tested in each service (crypto test/payment-request-idempotency.test.ts, bnpl test/widget-sessions.test.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { BusinessRuleError, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, envelopeErrorFormat, idempotencyFingerprint, idempotencyKeyReused, parseIdempotencyKey } from '../src/index.js';

describe('parseIdempotencyKey', () => {
  it('no header: not idempotent, no problem', () => {
    expect(parseIdempotencyKey(undefined)).toEqual({ fields: {} });
    expect(parseIdempotencyKey(null)).toEqual({ fields: {} });
  });

  it('1 to 255 visible ASCII characters without spaces are a key', () => {
    for (const key of ['a', 'order-42', '550e8400-e29b-41d4-a716-446655440000', '~!@#$%^&*()', 'x'.repeat(255)]) expect(parseIdempotencyKey(key)).toEqual({ key, fields: {} });
  });

  it('anything else is a field error on Idempotency-Key', () => {
    for (const bad of ['', 'has space', 'x'.repeat(256), 'ünï', 'tab\there', 42]) {
      expect(parseIdempotencyKey(bad)).toEqual({ fields: { [IDEMPOTENCY_KEY_HEADER]: [IDEMPOTENCY_MESSAGES.invalid] } });
    }
  });
});

describe('idempotencyFingerprint', () => {
  it('is the SHA-256 of the fields as JSON in sorted key order (stable across releases and client field order)', () => {
    const expected = createHash('sha256').update('{"amount":"0.5","asset_id":1,"title":"T"}').digest('hex');
    expect(idempotencyFingerprint({ title: 'T', asset_id: 1, amount: '0.5' })).toBe(expected);
    expect(idempotencyFingerprint({ amount: '0.5', asset_id: 1, title: 'T' })).toBe(expected);
  });

  it('differs for any difference in a value, null included', () => {
    const base = idempotencyFingerprint({ a: 1, b: null });
    expect(idempotencyFingerprint({ a: 2, b: null })).not.toBe(base);
    expect(idempotencyFingerprint({ a: 1, b: 'x' })).not.toBe(base);
    expect(idempotencyFingerprint({ a: 1, b: false })).not.toBe(base);
  });
});

describe('idempotencyKeyReused', () => {
  it('is a 422 business-rule refusal on the key, code idempotency_key_reused', () => {
    const error = idempotencyKeyReused();
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(envelopeErrorFormat.render(error)).toEqual({
      status: 422,
      body: { error: { code: 'idempotency_key_reused', message: IDEMPOTENCY_MESSAGES.reused, fields: { [IDEMPOTENCY_KEY_HEADER]: [IDEMPOTENCY_MESSAGES.reused] } } },
    });
  });
});
