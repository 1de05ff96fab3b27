import { describe, expect, it } from '@jest/globals';
import { loadStackEnv } from '../src/config.js';
import { StackError } from '../src/errors.js';

describe('loadStackEnv', () => {
  it('applies the documented default ports', () => {
    const env = loadStackEnv({});
    expect([env.GATEWAY_PORT, env.BNPL_PORT, env.CRYPTO_PORT, env.PHOTOS_PORT]).toEqual([4000, 4001, 4002, 4003]);
    expect([env.TEMPORAL_PORT, env.TEMPORAL_UI_PORT, env.POSTGRES_PORT]).toEqual([7233, 8233, 5433]);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TEMPORAL_ADDRESS).toBeUndefined();
  });

  it('reads overrides from the environment', () => {
    const env = loadStackEnv({ BNPL_PORT: '5001', TEMPORAL_ADDRESS: 'temporal.internal:7233', DATABASE_URL: 'postgres://u:p@db:5432/postgres' });
    expect(env.BNPL_PORT).toBe(5001);
    expect(env.TEMPORAL_ADDRESS).toBe('temporal.internal:7233');
    expect(env.DATABASE_URL).toBe('postgres://u:p@db:5432/postgres');
  });

  it('treats empty strings as unset', () => {
    expect(loadStackEnv({ DATABASE_URL: '', TEMPORAL_ADDRESS: '' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['CRYPTO_PORT', 'abc'],
    ['GATEWAY_PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['TEMPORAL_ADDRESS', 'http://localhost:7233'],
    ['LOG_LEVEL', 'loud'],
  ])('a bad %s stops with a message naming it', (name, value) => {
    let error: unknown;
    try {
      loadStackEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StackError);
    expect((error as StackError).message).toContain(name);
    expect((error as StackError).message).toContain(JSON.stringify(value));
    expect((error as StackError).fix).toContain(name);
  });

  it('refuses two components on one port', () => {
    expect(() => loadStackEnv({ BNPL_PORT: '4002' })).toThrow(/BNPL_PORT and CRYPTO_PORT are both 4002|CRYPTO_PORT and BNPL_PORT are both 4002/);
  });
});
