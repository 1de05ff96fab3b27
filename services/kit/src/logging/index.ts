export * from './logger.js';
export * from './redaction.js';
