import { defineEntity, p } from '@mikro-orm/core';
import { Team, User } from '../teams/index.js';
import { AccessTokenRepository } from './access-token.repository.js';

/**
 * A bearer token of one user, scoped to one team (switch-team moves it). Only SHA-256(token) is stored.
 * `abilities` null = a login session (permissions from the user's role); a list = an integration or device token.
 */
export const AccessTokenSchema = defineEntity({
  name: 'AccessToken',
  tableName: 'access_tokens',
  repository: () => AccessTokenRepository,
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique(),
    /** The device identifier sent at login, or the integration token's name. */
    name: p.string().length(191),
    abilities: p.array().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export class AccessToken extends AccessTokenSchema.class {
  isUsable(now: Date): boolean {
    return this.revokedAt == null && (this.expiresAt == null || this.expiresAt > now);
  }
}
AccessTokenSchema.setClass(AccessToken);
