export * from './config.js';
export * from './credentials.js';
export * from './data-source.js';
export * from './gateway.js';
export * from './graphiql.js';
