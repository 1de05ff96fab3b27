import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, loadConfig, serviceEnv } from '../src/index.js';

const minimal = { PORT: '4001', DATABASE_URL: 'postgres://app@db.internal:5432/bnpl' };

function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig with serviceEnv', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig(serviceEnv, minimal)).toEqual({
      PORT: 4001,
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app@db.internal:5432/bnpl',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      LOG_LEVEL: 'info',
      BODY_LIMIT: '1mb',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: [],
      SHUTDOWN_GRACE_MS: 10_000,
      REQUEST_DEADLINE_MS: 15_000,
      GRAPHQL_MAX_DEPTH: 10,
      GRAPHQL_MAX_COST: 1000,
      GRAPHQL_MAX_ALIASES: 15,
      GRAPHQL_MAX_DIRECTIVES: 50,
      GRAPHQL_MAX_TOKENS: 2000,
    });
  });

  it('parses every variable that is set', () => {
    const config = loadConfig(serviceEnv, {
      ...minimal,
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://u:p@localhost/crypto',
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_NAMESPACE: 'payments',
      LOG_LEVEL: 'debug',
      BODY_LIMIT: '256kb',
      PUBLIC_BASE_URL: 'https://pay.example.com/',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: ' localhost, 127.0.0.1 ,10.0.0.0/8,::1,fd00::/8,',
      SHUTDOWN_GRACE_MS: '2500',
      TEMPORAL_MAX_CACHED_WORKFLOWS: '250',
    });
    expect(config).toMatchObject({
      TEMPORAL_MAX_CACHED_WORKFLOWS: 250,
      HOST: '0.0.0.0',
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      LOG_LEVEL: 'debug',
      BODY_LIMIT: '256kb',
      PUBLIC_BASE_URL: 'https://pay.example.com',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: ['localhost', '127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'],
      SHUTDOWN_GRACE_MS: 2500,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig(serviceEnv, { ...minimal, LOG_LEVEL: '', PUBLIC_BASE_URL: '' })).toMatchObject({ LOG_LEVEL: 'info' });
    expect(loadConfig(serviceEnv, { ...minimal, PUBLIC_BASE_URL: '' }).PUBLIC_BASE_URL).toBeUndefined();
  });

  it('names every missing required variable', () => {
    const error = configErrorOf(() => loadConfig(serviceEnv, {}));
    expect(error.problems).toEqual([
      { variable: 'PORT', problem: 'is required' },
      { variable: 'DATABASE_URL', problem: 'is required' },
    ]);
    expect(error.message).toBe('Invalid configuration: PORT is required; DATABASE_URL is required');
  });

  it('names each invalid variable and says why', () => {
    const error = configErrorOf(() =>
      loadConfig(serviceEnv, {
        PORT: '80a',
        DATABASE_URL: 'mysql://db/app',
        LOG_LEVEL: 'loud',
        TEMPORAL_ADDRESS: 'no-port',
        PUBLIC_BASE_URL: 'ftp://x',
        WEBHOOK_ALLOW_PRIVATE_HOSTS: 'localhost,10.0.0.0/99,bad host',
        SHUTDOWN_GRACE_MS: '-1',
        TEMPORAL_MAX_CACHED_WORKFLOWS: 'many',
      }),
    );
    const byVariable = Object.fromEntries(error.problems.map((p) => [p.variable, p.problem]));
    expect(Object.keys(byVariable).sort()).toEqual(
      ['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'PUBLIC_BASE_URL', 'SHUTDOWN_GRACE_MS', 'TEMPORAL_ADDRESS', 'TEMPORAL_MAX_CACHED_WORKFLOWS', 'WEBHOOK_ALLOW_PRIVATE_HOSTS'].sort(),
    );
    expect(byVariable.PORT).toBe('must be a whole number');
    expect(byVariable.DATABASE_URL).toBe('must be a postgres:// URL');
    expect(byVariable.LOG_LEVEL).toMatch(/must be one of fatal, error/);
    expect(byVariable.WEBHOOK_ALLOW_PRIVATE_HOSTS).toContain('"10.0.0.0/99"');
    expect(byVariable.WEBHOOK_ALLOW_PRIVATE_HOSTS).toContain('"bad host"');
    expect(error.message).toContain('PORT must be a whole number');
  });

  it('rejects out-of-range ports', () => {
    expect(configErrorOf(() => loadConfig(serviceEnv, { ...minimal, PORT: '70000' })).problems).toEqual([
      { variable: 'PORT', problem: 'must be at most 65535' },
    ]);
    expect(configErrorOf(() => loadConfig(serviceEnv, { ...minimal, PORT: '0' })).problems).toEqual([
      { variable: 'PORT', problem: 'must be at least 1' },
    ]);
  });

  it('lets a service extend the base schema', () => {
    const bnplEnv = serviceEnv.extend({ DASHBOARD_TOKEN_TTL_MINUTES: z.coerce.number().int().positive().default(60) });
    expect(loadConfig(bnplEnv, { ...minimal, DASHBOARD_TOKEN_TTL_MINUTES: '15' }).DASHBOARD_TOKEN_TTL_MINUTES).toBe(15);
    expect(configErrorOf(() => loadConfig(bnplEnv, { ...minimal, DASHBOARD_TOKEN_TTL_MINUTES: '-5' })).problems[0]?.variable).toBe(
      'DASHBOARD_TOKEN_TTL_MINUTES',
    );
  });

  it('reads process.env by default', () => {
    const previous = { ...process.env };
    try {
      process.env.PORT = '4555';
      process.env.DATABASE_URL = 'postgres://localhost/x';
      expect(loadConfig(serviceEnv).PORT).toBe(4555);
    } finally {
      process.env = previous;
    }
  });
});
