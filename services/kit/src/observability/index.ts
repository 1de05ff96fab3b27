export * from './http-metrics.js';
export * from './metrics.js';
