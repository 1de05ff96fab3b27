export * from './graphql-errors.js';
export * from './subgraph.js';
export * from './subgraph-path.js';
export * from './rate-limited-response.js';
export * from './resolvers.js';
export * from './graphiql-page.js';
