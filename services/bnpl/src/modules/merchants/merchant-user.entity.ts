import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from './merchant.entity.js';

/** A person who signs in to a merchant's dashboard (login + one-time code; the flow arrives with the dashboard issue). */
export const MerchantUserSchema = defineEntity({
  name: 'MerchantUser',
  tableName: 'merchant_users',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    email: p.string().length(254).unique(),
    name: p.string().length(191),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class MerchantUser extends MerchantUserSchema.class {}
MerchantUserSchema.setClass(MerchantUser);
