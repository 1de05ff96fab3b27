export * from './http-metrics.js';
export * from './metrics.js';
export * from './tracing.js';
