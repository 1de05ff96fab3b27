// The regtest node's RPC credentials reach litecoind only as Bitcoin Core's salted `-rpcauth` form.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { rpcAuth } from '../src/litecoin.js';

describe('rpcAuth', () => {
  it('is user:salt$HMAC-SHA256(salt, password) in hex, with a fresh salt each time, and never the password', () => {
    const value = rpcAuth('tributary', 'secret-password');
    const match = /^tributary:([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(value);
    expect(match).not.toBeNull();
    expect(match![2]).toBe(createHmac('sha256', match![1]!).update('secret-password').digest('hex'));
    expect(value).not.toContain('secret-password');
    expect(rpcAuth('tributary', 'secret-password')).not.toBe(value);
  });
});
