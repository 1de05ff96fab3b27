import { defineEntity, p } from '@mikro-orm/core';
import { MerchantUser } from '../merchants/index.js';
import { DashboardTokenRepository } from './dashboard-token.repository.js';

/** A dashboard bearer token of one merchant user; only SHA-256(token) is stored. */
export const DashboardTokenSchema = defineEntity({
  name: 'DashboardToken',
  tableName: 'dashboard_tokens',
  repository: () => DashboardTokenRepository,
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    user: () => p.manyToOne(MerchantUser).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export class DashboardToken extends DashboardTokenSchema.class {}
DashboardTokenSchema.setClass(DashboardToken);

/** A token works until it is revoked or its expiry passes. */
export function isDashboardTokenUsable(token: { revokedAt?: Date | null; expiresAt?: Date | null }, now: Date): boolean {
  return token.revokedAt == null && (token.expiresAt == null || token.expiresAt > now);
}
