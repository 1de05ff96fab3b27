export * from './orm-logger.js';
export * from './orm.js';
