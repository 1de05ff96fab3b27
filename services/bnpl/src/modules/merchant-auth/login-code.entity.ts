import { defineEntity, p } from '@mikro-orm/core';
import { MerchantUser } from '../merchants/index.js';

/**
 * The one-time code of a dashboard sign-in in progress: at most one per user (a new login replaces it), stored as
 * HMAC-SHA256 keyed with a per-code random salt, with its deadline and the wrong tries so far. Deleted when used,
 * expired or out of tries.
 */
export const LoginCodeSchema = defineEntity({
  name: 'LoginCode',
  tableName: 'merchant_login_codes',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    user: () => p.oneToOne(MerchantUser).owner().deleteRule('cascade'),
    codeSalt: p.string().length(32),
    codeHash: p.string().length(64),
    failedAttempts: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
  checks: [{ name: 'merchant_login_codes_failed_attempts_check', expression: 'failed_attempts >= 0' }],
});

export class LoginCode extends LoginCodeSchema.class {}
LoginCodeSchema.setClass(LoginCode);
