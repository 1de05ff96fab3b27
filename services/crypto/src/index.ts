export * from './service.js';
export { migrateUp } from '@tributary/kit';
export { seedDemoData, DEMO_API_KEY, type CryptoDemoCredentials } from './seed.js';
export { AccountService, type CryptoPrincipal } from './modules/accounts/account.service.js';
export { generateApiKey, hashSecret } from './modules/accounts/api-key-credentials.js';
export { Account } from './modules/accounts/account.entity.js';
export { ApiKey } from './modules/accounts/api-key.entity.js';
export * from './modules/payment-requests/index.js';
export * from './modules/payments/index.js';
