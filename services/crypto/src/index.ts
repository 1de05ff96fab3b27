export * from './service.js';
export { migrateUp } from '@tributary/kit';
export { seedDemoData, DEMO_API_KEY, type CryptoDemoCredentials } from './seed.js';
export { Account, AccountService, ApiKey, generateApiKey, hashSecret, type CryptoPrincipal } from './modules/accounts/index.js';
export * from './modules/payment-requests/index.js';
export * from './modules/payments/index.js';
export { GRAPHIQL_EXAMPLES } from './graphql/graphiql-examples.js';
