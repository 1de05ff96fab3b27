export * from './env-schemas.js';
export * from './load-config.js';
export * from './node-env.js';
export * from './secrets-env.js';
export * from './public-url.js';
export * from './node-flags.js';
