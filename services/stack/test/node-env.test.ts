// `npm start` runs everything for development: the NODE_ENV its processes get, and its refusal of any other.
import { describe, expect, it } from '@jest/globals';
import { StackError } from '../src/errors.js';
import { assertDevelopmentNodeEnv, stackNodeEnv } from '../src/start.js';

describe('npm start and NODE_ENV', () => {
  it('passes development when NODE_ENV is unset or empty, and a development or test value as it is', () => {
    expect(stackNodeEnv({})).toBe('development');
    expect(stackNodeEnv({ NODE_ENV: ' ' })).toBe('development');
    expect(stackNodeEnv({ NODE_ENV: 'test' })).toBe('test');
    expect(() => assertDevelopmentNodeEnv({})).not.toThrow();
    expect(() => assertDevelopmentNodeEnv({ NODE_ENV: 'development' })).not.toThrow();
  });

  it.each(['production', 'staging'])('stops before anything starts when NODE_ENV=%s, naming it', (nodeEnv) => {
    expect(() => assertDevelopmentNodeEnv({ NODE_ENV: nodeEnv })).toThrow(StackError);
    expect(() => assertDevelopmentNodeEnv({ NODE_ENV: nodeEnv })).toThrow(`NODE_ENV is "${nodeEnv}": npm start runs the services for development`);
  });
});
