import { describe, expect, it } from '@jest/globals';
import {
  STANDARD_WEBHOOK_SECRET_PATTERN,
  generateStandardWebhookSecret,
  standardWebhookHeaders,
  verifyStandardWebhook,
} from '../../src/webhooks/index.js';

// The reference vector of the Standard Webhooks libraries (standard-webhooks/standard-webhooks, libraries' tests).
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const at = (seconds: number) => new Date(seconds * 1000);

describe('Standard Webhooks signatures', () => {
  it('match the reference vector', () => {
    expect(standardWebhookHeaders(vector.secret, vector.id, vector.timestamp, vector.body)).toEqual({
      'webhook-id': vector.id,
      'webhook-timestamp': String(vector.timestamp),
      'webhook-signature': vector.signature,
    });
  });

  it('verify the reference vector, also among several signatures and with Node-style lower-case headers', () => {
    const headers = { 'webhook-id': vector.id, 'webhook-timestamp': String(vector.timestamp), 'webhook-signature': `v1,AAAA ${vector.signature}` };
    expect(verifyStandardWebhook(vector.secret, headers, Buffer.from(vector.body), { now: at(vector.timestamp + 10) })).toEqual({ ok: true });
  });

  it('refuse a tampered body, another id, a wrong secret, a stale or future timestamp, missing headers', () => {
    const headers = standardWebhookHeaders(vector.secret, vector.id, vector.timestamp, vector.body);
    const now = { now: at(vector.timestamp) };
    expect(verifyStandardWebhook(vector.secret, headers, '{"test": 2432232315}', now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyStandardWebhook(vector.secret, { ...headers, 'webhook-id': 'msg_other' }, vector.body, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyStandardWebhook(generateStandardWebhookSecret(), headers, vector.body, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyStandardWebhook(vector.secret, headers, vector.body, { now: at(vector.timestamp + 301) })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyStandardWebhook(vector.secret, headers, vector.body, { now: at(vector.timestamp - 301) })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyStandardWebhook(vector.secret, { ...headers, 'webhook-signature': undefined }, vector.body, now)).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyStandardWebhook(vector.secret, { ...headers, 'webhook-timestamp': '1e9' }, vector.body, now)).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyStandardWebhook(vector.secret, { ...headers, 'webhook-signature': 'v2,abc' }, vector.body, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('generated secrets are whsec_ + base64 of 32 random bytes, each different', () => {
    const a = generateStandardWebhookSecret();
    expect(a).toMatch(STANDARD_WEBHOOK_SECRET_PATTERN);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateStandardWebhookSecret()).not.toBe(a);
  });
});
