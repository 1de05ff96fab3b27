export * from './env-schemas.js';
export * from './load-config.js';
