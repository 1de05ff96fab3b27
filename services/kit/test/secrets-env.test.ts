import { describe, expect, it } from '@jest/globals';
import {
  ConfigError,
  DEV_SECRETS_ENCRYPTION_KEY,
  generateSecretBoxKey,
  loadConfig,
  requireSecretsKeyInProduction,
  secretBoxFor,
  secretsEnv,
  secretsFields,
  serviceEnv,
} from '../src/index.js';

describe('secrets env (SECRETS_ENCRYPTION_KEY, shared by every service that seals secrets)', () => {
  it('accepts a 32-byte base64 key and opens a box with it', () => {
    const key = generateSecretBoxKey();
    const config = loadConfig(secretsEnv, { SECRETS_ENCRYPTION_KEY: key });
    expect(config.SECRETS_ENCRYPTION_KEY).toBe(key);
    const sealed = secretBoxFor(config).seal('whsec_x', 'ctx');
    expect(secretBoxFor({ SECRETS_ENCRYPTION_KEY: key }).open(sealed, 'ctx')).toBe('whsec_x');
    // Another key does not open it: the configured key is the one used.
    expect(() => secretBoxFor({}).open(sealed, 'ctx')).toThrow(/cannot be opened/);
  });

  it('falls back to the published dev key outside production, and refuses to in production', () => {
    expect(loadConfig(secretsEnv, {}).SECRETS_ENCRYPTION_KEY).toBeUndefined();
    const devSealed = secretBoxFor({ SECRETS_ENCRYPTION_KEY: DEV_SECRETS_ENCRYPTION_KEY }).seal('s');
    expect(secretBoxFor({}).open(devSealed)).toBe('s');
    expect(() => loadConfig(secretsEnv, { NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig(secretsEnv, { NODE_ENV: 'production' })).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
  });

  it('refuses a key that is not exactly 32 bytes of base64, naming the variable', () => {
    for (const bad of ['short', Buffer.alloc(31).toString('base64'), `${generateSecretBoxKey()}x`]) {
      expect(() => loadConfig(secretsEnv, { SECRETS_ENCRYPTION_KEY: bad })).toThrow(/SECRETS_ENCRYPTION_KEY must be 32 bytes encoded as base64/);
    }
  });

  it('extends a service env with the same fields and production rule', () => {
    const env = serviceEnv.extend(secretsFields).superRefine(requireSecretsKeyInProduction);
    const base = { PORT: '1', DATABASE_URL: 'postgres://localhost/x' };
    expect(loadConfig(env, base).SECRETS_ENCRYPTION_KEY).toBeUndefined();
    expect(() => loadConfig(env, { ...base, NODE_ENV: 'production' })).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
  });
});
