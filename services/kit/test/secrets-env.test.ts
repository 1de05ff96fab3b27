import { describe, expect, it } from '@jest/globals';
import {
  ConfigError,
  DEV_SECRETS_ENCRYPTION_KEY,
  generateSecretBoxKey,
  loadConfig,
  requireSecretsKeyOutsideDevelopment,
  secretBoxFor,
  secretsKeyOf,
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
    expect(() => secretBoxFor({ NODE_ENV: 'test' }).open(sealed, 'ctx')).toThrow(/cannot be opened/);
  });

  it.each(['development', 'test'])('with NODE_ENV=%s and no key, falls back to the published development key', (nodeEnv) => {
    const config = loadConfig(secretsEnv, { NODE_ENV: nodeEnv });
    expect(config.SECRETS_ENCRYPTION_KEY).toBeUndefined();
    expect(secretsKeyOf(config)).toBe(DEV_SECRETS_ENCRYPTION_KEY);
    const devSealed = secretBoxFor({ SECRETS_ENCRYPTION_KEY: DEV_SECRETS_ENCRYPTION_KEY }).seal('s');
    expect(secretBoxFor(config).open(devSealed)).toBe('s');
  });

  it('with NODE_ENV unset and no key, refuses to load, naming the variable', () => {
    expect(() => loadConfig(secretsEnv, {})).toThrow(ConfigError);
    expect(() => loadConfig(secretsEnv, {})).toThrow(
      'Invalid configuration: SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test (NODE_ENV is unset): 32 bytes as base64, e.g. `openssl rand -base64 32`',
    );
  });

  it.each(['production', 'staging', 'Development', 'prod'])('with NODE_ENV=%s and no key, refuses to load, naming the variable and the value', (nodeEnv) => {
    expect(() => loadConfig(secretsEnv, { NODE_ENV: nodeEnv })).toThrow(`SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test (NODE_ENV is "${nodeEnv}")`);
  });

  it('never hands out the development key for a config that skipped the rule', () => {
    expect(() => secretsKeyOf({})).toThrow(/SECRETS_ENCRYPTION_KEY is required unless NODE_ENV is development or test \(NODE_ENV is unset\)/);
    expect(() => secretBoxFor({ NODE_ENV: 'staging' })).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
    const key = generateSecretBoxKey();
    expect(secretsKeyOf({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: key })).toBe(key);
  });

  it('refuses a key that is not exactly 32 bytes of base64, naming the variable', () => {
    for (const bad of ['short', Buffer.alloc(31).toString('base64'), `${generateSecretBoxKey()}x`]) {
      expect(() => loadConfig(secretsEnv, { SECRETS_ENCRYPTION_KEY: bad })).toThrow(/SECRETS_ENCRYPTION_KEY must be 32 bytes encoded as base64/);
    }
  });

  it('extends a service env with the same fields and rule', () => {
    const env = serviceEnv.extend(secretsFields).superRefine(requireSecretsKeyOutsideDevelopment);
    const base = { PORT: '1', DATABASE_URL: 'postgres://localhost/x' };
    expect(loadConfig(env, { ...base, NODE_ENV: 'development' }).SECRETS_ENCRYPTION_KEY).toBeUndefined();
    expect(() => loadConfig(env, base)).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
    expect(() => loadConfig(env, { ...base, NODE_ENV: 'production' })).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
  });
});
