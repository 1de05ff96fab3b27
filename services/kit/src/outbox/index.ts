export * from './workflow-outbox.entity.js';
export * from './enqueue.js';
export * from './workflow-outbox.js';
export * from './temporal-client.js';
export * from './migration.js';
