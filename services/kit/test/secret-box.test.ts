import { describe, expect, it } from '@jest/globals';
import { SecretBox, SecretBoxError, decodeSecretBoxKey, generateSecretBoxKey } from '../src/index.js';

describe('SecretBox (AES-256-GCM at rest)', () => {
  const box = SecretBox.fromBase64(generateSecretBoxKey());

  it('round-trips, with a fresh IV per seal and no plaintext in the sealed form', () => {
    const secret = 'whsec_' + 'a'.repeat(48);
    const first = box.seal(secret, 'account:1');
    const second = box.seal(secret, 'account:1');
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('aaaa');
    expect(box.open(first, 'account:1')).toBe(secret);
    expect(box.open(second, 'account:1')).toBe(secret);
    expect(box.open(box.seal(''), '')).toBe('');
  });

  it('detects tampering of any part', () => {
    const sealed = box.seal('whsec_' + 'b'.repeat(48));
    const parts = sealed.split('.');
    for (let i = 1; i < 4; i += 1) {
      const bytes = Buffer.from(parts[i]!, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      const tampered = [...parts];
      tampered[i] = bytes.toString('base64url');
      expect(() => box.open(tampered.join('.'))).toThrow(SecretBoxError);
    }
    expect(() => box.open(sealed.replace(/^v1/, 'v2'))).toThrow(SecretBoxError);
    expect(() => box.open(parts.slice(0, 3).join('.'))).toThrow(SecretBoxError);
    expect(() => box.open('not sealed')).toThrow(SecretBoxError);
  });

  it('refuses another key and another context (a value moved to another row)', () => {
    const sealed = box.seal('whsec_' + 'c'.repeat(48), 'account:1');
    expect(() => SecretBox.fromBase64(generateSecretBoxKey()).open(sealed, 'account:1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'account:2')).toThrow(SecretBoxError);
  });

  it('takes exactly 32 bytes of strict base64, naming the variable otherwise', () => {
    expect(decodeSecretBoxKey(generateSecretBoxKey())).toHaveLength(32);
    for (const bad of ['', 'c2hvcnQ=', Buffer.alloc(31).toString('base64'), Buffer.alloc(33).toString('base64'), `${generateSecretBoxKey().slice(0, -1)}!`]) {
      expect(() => decodeSecretBoxKey(bad, 'SECRETS_ENCRYPTION_KEY')).toThrow(/SECRETS_ENCRYPTION_KEY/);
    }
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
    expect(JSON.stringify({ box })).toBe('{"box":"[SecretBox]"}');
  });
});
