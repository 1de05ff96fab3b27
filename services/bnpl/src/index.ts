export * from './service.js';
export { migrateUp } from '@tributary/kit';
export { seedDemoData, DEMO_DASHBOARD_TOKEN, DEMO_PUBLIC_KEY, DEMO_SECRET_KEY, DEMO_USER_EMAIL, DEMO_USER_PASSWORD, type BnplDemoCredentials } from './seed.js';
export type { BnplPrincipal } from './modules/merchant-auth/index.js';
export { GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
