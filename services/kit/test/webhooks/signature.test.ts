import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { signPayload, verifySignature } from '../../src/webhooks/index.js';

describe('webhook signatures', () => {
  it('is lowercase hex HMAC-SHA256 of the raw bytes (RFC 4231 test case 2)', () => {
    const signature = signPayload('Jefe', Buffer.from('what do ya want for nothing?'));
    expect(signature).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('signs exactly the bytes given: one changed byte or whitespace changes the signature', () => {
    const body = Buffer.from('{"event":"payment.paid","amount_paid":"0.5"}');
    const signature = signPayload('whsec_x', body);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signature).toBe(createHmac('sha256', 'whsec_x').update(body).digest('hex'));
    expect(signPayload('whsec_x', Buffer.from('{"event":"payment.paid", "amount_paid":"0.5"}'))).not.toBe(signature);
    // A string is signed as its UTF-8 bytes.
    expect(signPayload('whsec_x', body.toString('utf8'))).toBe(signature);
    expect(signPayload('whsec_x', Buffer.from('{"n":"é"}'))).toBe(signPayload('whsec_x', '{"n":"é"}'));
  });

  it('verifies a correct signature and refuses wrong secret, tampered body, truncated, malformed or empty ones', () => {
    const body = Buffer.from('{"event":"loan.funded"}');
    const signature = signPayload('s1', body);
    expect(verifySignature('s1', body, signature)).toBe(true);
    expect(verifySignature('s1', body.toString(), signature)).toBe(true);
    expect(verifySignature('s2', body, signature)).toBe(false);
    expect(verifySignature('s1', Buffer.from('{"event":"loan.funded" }'), signature)).toBe(false);
    expect(verifySignature('s1', body, signature.slice(0, 62))).toBe(false);
    expect(verifySignature('s1', body, `${signature}00`)).toBe(false);
    expect(verifySignature('s1', body, `${signature.slice(0, 63)}z`)).toBe(false);
    expect(verifySignature('s1', body, `sha256=${signature}`)).toBe(false);
    expect(verifySignature('s1', body, '')).toBe(false);
  });
});
