export * from './domain-errors.js';
export * from './error-formats.js';
