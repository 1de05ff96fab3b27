export * from './graphql-errors.js';
export * from './subgraph.js';
export * from './resolvers.js';
