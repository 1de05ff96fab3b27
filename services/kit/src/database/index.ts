export * from './orm-logger.js';
export * from './orm.js';
export * from './after-commit.js';
export * from './kit-tables.js';
export * from './idempotency.js';
export * from './entity-insert.js';
export * from './prepared-statement.js';
export * from './unavailable.js';
