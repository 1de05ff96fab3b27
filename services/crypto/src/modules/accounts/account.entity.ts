import { defineEntity, p } from '@mikro-orm/core';
import { ApiKey } from './api-key.entity.js';

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** A merchant account. A suspended account is refused at authentication even with a valid key. */
export const AccountSchema = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(191),
    status: p.enum(ACCOUNT_STATUSES).default('active'),
    /** Webhook signing secret `whsec_…`, sealed with the SecretBox (see signing-secret.ts); null until first set. */
    signingSecretSealed: p.text().nullable(),
    signingSecretRotatedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    apiKeys: () => p.oneToMany(ApiKey).mappedBy('account'),
  },
});

export class Account extends AccountSchema.class {
  isActive(): boolean {
    return this.status === 'active';
  }
}
AccountSchema.setClass(Account);
