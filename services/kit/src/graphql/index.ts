export * from './graphql-errors.js';
export * from './subgraph.js';
export * from './limits.js';
export * from './subgraph-path.js';
export * from './rate-limited-response.js';
export * from './subgraph-context.js';
export * from './resolver-maps.js';
export * from './graphiql-page.js';
