// Merchants and the people who sign in to their dashboard.
import { MerchantUserSchema } from './merchant-user.entity.js';
import { MerchantSchema } from './merchant.entity.js';

export { Merchant, MerchantSchema, SETTLEMENT_CADENCES, type SettlementCadence } from './merchant.entity.js';
export { MerchantUser, MerchantUserSchema } from './merchant-user.entity.js';
export { MerchantService } from './merchant.service.js';
export { merchantResolvers } from './merchant.resolvers.js';

export const merchantEntities = [MerchantSchema, MerchantUserSchema];
