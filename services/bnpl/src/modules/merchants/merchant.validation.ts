// What an operator gives when onboarding a merchant or adding a dashboard user (MerchantAdminService), as zod schemas.
import { wellFormedText, newPasswordInput } from '@tributary/kit';
import { z } from 'zod';
import { DEFAULT_MDR_BPS, MAX_MDR_BPS, MIN_MDR_BPS, SETTLEMENT_CADENCES } from './merchant.entity.js';
import { emailInput } from './merchant-user-email.js';

const displayName = wellFormedText(z.string().trim().min(1).max(191));

export const mdrBpsInput = z
  .number({ error: 'Must be a whole number of basis points.' })
  .int({ error: 'Must be a whole number of basis points.' })
  .min(MIN_MDR_BPS, { error: `Must be between ${MIN_MDR_BPS} and ${MAX_MDR_BPS} basis points.` })
  .max(MAX_MDR_BPS, { error: `Must be between ${MIN_MDR_BPS} and ${MAX_MDR_BPS} basis points.` });

export const settlementCadenceInput = z.enum(SETTLEMENT_CADENCES, { error: `Must be one of ${SETTLEMENT_CADENCES.join(', ')}.` });

const newUserFields = {
  email: emailInput,
  password: newPasswordInput,
  /** The user's display name; default: the e-mail's local part. */
  userName: displayName.optional(),
};

export const createMerchantInput = z.strictObject({
  name: displayName,
  ...newUserFields,
  mdrBps: mdrBpsInput.default(DEFAULT_MDR_BPS),
  cadence: settlementCadenceInput.default('weekly'),
});
export type CreateMerchantInput = z.input<typeof createMerchantInput>;

export const addMerchantUserInput = z.strictObject({
  merchantId: z.uuid({ error: 'Must be a merchant id (UUID).' }),
  ...newUserFields,
});
export type AddMerchantUserInput = z.input<typeof addMerchantUserInput>;
