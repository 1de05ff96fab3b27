export * from './service.js';
export { migrateUp } from '@tributary/kit';
export { seedDemoData, DEMO_ACCESS_TOKEN, type PhotosDemoCredentials } from './seed.js';
export type { PhotosPrincipal } from './modules/auth/auth.service.js';
export { GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
