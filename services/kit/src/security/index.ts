export * from './tokens.js';
export * from './secret-box.js';
