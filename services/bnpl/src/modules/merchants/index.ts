// Merchants and the people who sign in to their dashboard; the operators' onboarding and settings (MerchantAdminService).
import { MerchantUserSchema } from './merchant-user.entity.js';
import { MerchantSchema } from './merchant.entity.js';

export { DEFAULT_MDR_BPS, MAX_MDR_BPS, MIN_MDR_BPS, Merchant, MerchantSchema, SETTLEMENT_CADENCES, type SettlementCadence } from './merchant.entity.js';
export { MerchantUser, MerchantUserSchema } from './merchant-user.entity.js';
export { EMAIL_MAX_LENGTH, emailInput, normalizeEmail } from './merchant-user-email.js';
export { MerchantService } from './merchant.service.js';
export { MerchantAdminService, type CreatedMerchant, type MerchantSettingChange } from './merchant-admin.service.js';
export { type AddMerchantUserInput, type CreateMerchantInput } from './merchant.validation.js';
export { merchantResolvers } from './merchant.resolvers.js';

export const merchantEntities = [MerchantSchema, MerchantUserSchema];
