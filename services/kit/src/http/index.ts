export * from './http-server.js';
export * from './json-body.js';
export * from './readiness.js';
export * from './temporal-readiness.js';
export * from './request-id.js';
export * from './service-app.js';
export * from './api-docs.js';
export * from './rate-limit.js';
