import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { bearerCredential, hexDigestsEqual, randomChars, sha256Hex } from '../src/index.js';

describe('randomChars', () => {
  it('returns the requested number of [A-Za-z0-9] characters, different each time', () => {
    const a = randomChars(48);
    expect(a).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(randomChars(0)).toBe('');
    expect(randomChars(48)).not.toBe(a);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(randomChars(5_000));
    expect(seen.size).toBe(62);
  });
});

describe('sha256Hex', () => {
  it('is the lowercase hex SHA-256 of the UTF-8 bytes', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('ü')).toBe(createHash('sha256').update(Buffer.from([0xc3, 0xbc])).digest('hex'));
  });
});

describe('hexDigestsEqual', () => {
  it('is true only for the same digest', () => {
    expect(hexDigestsEqual(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(hexDigestsEqual(sha256Hex('a'), sha256Hex('b'))).toBe(false);
  });

  it('is false for different lengths and for empty digests (never throws)', () => {
    expect(hexDigestsEqual(sha256Hex('a'), sha256Hex('a').slice(0, 32))).toBe(false);
    expect(hexDigestsEqual('', '')).toBe(false);
    expect(hexDigestsEqual('zz', 'zz')).toBe(false);
  });
});

describe('bearerCredential', () => {
  it('extracts the credential of `Bearer <credential>`', () => {
    expect(bearerCredential('Bearer abc.DEF_1')).toBe('abc.DEF_1');
  });

  it('is null for a missing header, another scheme, or a malformed value', () => {
    expect(bearerCredential(undefined)).toBeNull();
    expect(bearerCredential('Basic abc')).toBeNull();
    expect(bearerCredential('bearer abc')).toBeNull();
    expect(bearerCredential('Bearer ')).toBeNull();
    expect(bearerCredential('Bearer a b')).toBeNull();
  });
});
