import { defineEntity, p } from '@mikro-orm/core';
import { Device } from '../devices/index.js';
import { Team, User } from '../teams/index.js';
import { AccessTokenRepository } from './access-token.repository.js';

/**
 * A bearer token of one user, scoped to one team (switch-team moves it). Only SHA-256(token) is stored.
 * `abilities` null = an office session (permissions from the user's role); a list = an integration token, or with a
 * `device` a device token (the single ability `capture`).
 */
/** session = office login; device = capture app login; integration = explicit abilities with a chosen expiry. */
export type AccessTokenKind = 'session' | 'device' | 'integration';

export const AccessTokenSchema = defineEntity({
  name: 'AccessToken',
  tableName: 'access_tokens',
  repository: () => AccessTokenRepository,
  // A device login revokes the device's earlier tokens by this column.
  indexes: [{ properties: ['device'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique(),
    /** The device identifier sent at login, or the integration token's name. */
    name: p.string().length(191),
    abilities: p.array().nullable(),
    /** The device a device token was minted for (login with a device_id); null for sessions and integration tokens. */
    device: () => p.manyToOne(Device).nullable().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export class AccessToken extends AccessTokenSchema.class {
  kind(): AccessTokenKind {
    if (this.device) return 'device';
    return this.abilities == null ? 'session' : 'integration';
  }

  isUsable(now: Date): boolean {
    return this.revokedAt == null && (this.expiresAt == null || this.expiresAt > now);
  }
}
AccessTokenSchema.setClass(AccessToken);
