import { describe, expect, it } from '@jest/globals';
import { isSensitiveKey, redactUrl } from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const secrets = ['sk_live_abc123', 'whsec_topsecret', 'hunter2', 'Bearer tok_999', 'session=xyz', 'pk_secret_part'];

describe('createLogger', () => {
  it('writes JSON lines with the service name and ISO time', () => {
    const { logger, lines } = capturingLogger();
    logger.info({ merchantId: 7 }, 'merchant created');
    expect(lines()[0]).toMatchObject({ service: 'kit-test', msg: 'merchant created', merchantId: 7, level: 30, time: expect.stringMatching(/Z$/) });
  });

  it('redacts secrets at any depth, in any spelling', () => {
    const { logger, text, lines } = capturingLogger();
    logger.info(
      {
        password: 'hunter2',
        merchant: { webhookSecret: 'whsec_topsecret', environments: [{ secret_key: 'sk_live_abc123', public_key: 'pk_visible' }], apiKeys: ['sk_live_abc123'] },
        headers: { authorization: 'Bearer tok_999', 'x-crypto-authorization': 'Bearer tok_999', cookie: 'session=xyz', 'x-merchant-public-key': 'pk_visible' },
        nested: { deeper: { deepest: { access_token: 'Bearer tok_999', private_key: 'pk_secret_part' } } },
      },
      'configured',
    );
    const output = text();
    for (const secret of secrets) expect(output).not.toContain(secret);
    const [line] = lines();
    expect(line).toMatchObject({
      password: '[Redacted]',
      // A sensitive key hides its whole value, containers included.
      merchant: { webhookSecret: '[Redacted]', environments: [{ secret_key: '[Redacted]', public_key: 'pk_visible' }], apiKeys: '[Redacted]' },
      headers: { authorization: '[Redacted]', 'x-crypto-authorization': '[Redacted]', 'x-merchant-public-key': 'pk_visible' },
    });
  });

  it('redacts child-logger bindings', () => {
    const { logger, text } = capturingLogger();
    logger.child({ token: 'tok_999', merchant: 'acme' }).info('hello');
    expect(text()).not.toContain('tok_999');
    expect(text()).toContain('acme');
  });

  it('redacts serialized errors carrying credentials', () => {
    const { logger, text } = capturingLogger();
    const error = Object.assign(new Error('upstream refused'), { config: { headers: { Authorization: 'Bearer tok_999' } } });
    logger.error({ err: error }, 'call failed');
    expect(text()).toContain('upstream refused');
    expect(text()).not.toContain('tok_999');
  });

  it('redacts sensitive query parameters in logged URLs', () => {
    const { logger, text } = capturingLogger();
    logger.info({ req: { method: 'GET', url: '/cb?token=tok_999&page=2', headers: { cookie: 'session=xyz' } } }, 'request');
    expect(text()).not.toContain('tok_999');
    expect(text()).not.toContain('session=xyz');
    expect(text()).toContain('page=2');
  });
});

describe('isSensitiveKey / redactUrl', () => {
  it('classifies keys', () => {
    for (const key of ['Authorization', 'x-bnpl-authorization', 'set-cookie', 'passwd', 'client_secret', 'refreshToken', 'apiKey', 'signing_key']) {
      expect(isSensitiveKey(key)).toBe(true);
    }
    for (const key of ['x-merchant-public-key', 'publicKey', 'key_id', 'amount', 'merchantId', 'Idempotency-Key']) {
      expect(isSensitiveKey(key)).toBe(false);
    }
  });

  it('leaves URLs without sensitive parameters unchanged', () => {
    expect(redactUrl('/api/pay/abc?page=2')).toBe('/api/pay/abc?page=2');
    expect(redactUrl('/x?api_key=1&q=a')).toBe('/x?api_key=%5BRedacted%5D&q=a');
  });
});
