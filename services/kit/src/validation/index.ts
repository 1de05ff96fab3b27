export * from './parse-input.js';
export * from './query-params.js';
export * from './text.js';
export * from './keyset-cursor.js';
export * from './email.js';
