export * from './amount.js';
export * from './amount-schema.js';
export * from './amount-type.js';
