import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from './merchant.entity.js';
import { MerchantUserRepository } from './merchant-user.repository.js';

/**
 * A person who signs in to a merchant's dashboard (password, then a one-time code by e-mail). The e-mail is stored
 * lowercased; the password only as a bcrypt hash (null: no password set, so the user cannot sign in).
 */
export const MerchantUserSchema = defineEntity({
  name: 'MerchantUser',
  tableName: 'merchant_users',
  repository: () => MerchantUserRepository,
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    email: p.string().length(254).unique(),
    name: p.string().length(191),
    passwordHash: p.string().length(60).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class MerchantUser extends MerchantUserSchema.class {}
MerchantUserSchema.setClass(MerchantUser);
