export * from './test-database.js';
export * from './tls.js';
export * from './https-receiver.js';
export * from './service-harness.js';
export * from './wait-for.js';
export * from './raw-http.js';
export * from './concurrency.js';
export * from './test-redis.js';
