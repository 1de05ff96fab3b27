export * from './parse-input.js';
