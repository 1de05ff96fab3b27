export * from './service.js';
export { migrateUp } from '@tributary/kit';
export { seedDemoData, DEMO_ACCESS_TOKEN, DEMO_USER_EMAIL, DEMO_USER_PASSWORD, type PhotosDemoCredentials } from './seed.js';
export type { PhotosPrincipal } from './modules/auth/index.js';
export { GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
