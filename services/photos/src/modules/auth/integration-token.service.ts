// Integration tokens (spec "Authentication"): explicit abilities (the 15 scopes) and an expiry chosen at creation,
// created, listed and revoked by a team's owners and admins (REST, GraphQL) or by an operator (admin commands). The
// token is shown once; only its SHA-256 is stored. Callers have checked the role (requireRole / principalWithRole).
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, parseInput } from '@tributary/kit';
import { TeamMembership, User } from '../teams/index.js';
import type { Ability } from './abilities.js';
import { AccessToken } from './access-token.entity.js';
import { INTEGRATION_TOKEN_MAX_DAYS, daysAfter, generateAccessToken, hashAccessToken } from './access-token-credentials.js';
import type { PhotosPrincipal } from './auth.service.js';
import { TOKENS_PER_PAGE, createTokenInput } from './auth.validation.js';
import { normalizeEmail } from './email-address.js';

export interface CreatedIntegrationToken {
  token: string;
  record: AccessToken;
}

export interface IntegrationTokenPage {
  items: AccessToken[];
  total: number;
  page: number;
  perPage: number;
}

/** What an operator names: the user (by e-mail) and the team the token acts in. */
export interface IntegrationTokenGrant {
  email: string;
  teamId: number;
  name: string;
  abilities: Ability[];
  expiresInDays: number;
}

/** The filter of a team's live integration tokens (unrevoked, unexpired, not a session or device token). */
function liveIntegrationTokens(teamId: number, now: Date) {
  return { team: teamId, device: null, abilities: { $ne: null }, revokedAt: null, expiresAt: { $gt: now } } as const;
}

export class IntegrationTokenService {
  constructor(private readonly em: EntityManager) {}

  /** A token acting as the caller in the caller's team. */
  async create(principal: PhotosPrincipal, body: unknown): Promise<CreatedIntegrationToken> {
    const input = parseInput(createTokenInput, body);
    const now = new Date();
    const expiresAt = input.expires_in_days === undefined ? chosenExpiry(input.expires_at!, now) : daysAfter(now, input.expires_in_days);
    return this.mint(principal.userId, principal.teamId, input.name, input.abilities, expiresAt);
  }

  /** The operator's `token create`: the user must be a member of the team. */
  async grant(grant: IntegrationTokenGrant): Promise<CreatedIntegrationToken> {
    const { name, abilities } = parseInput(createTokenInput, { name: grant.name, abilities: grant.abilities, expires_in_days: grant.expiresInDays });
    const user = await this.em.findOne(User, { email: normalizeEmail(grant.email) });
    const membership = user ? await this.em.findOne(TeamMembership, { user, team: grant.teamId }) : null;
    if (!user || !membership) throw new NotFoundError(`No user ${grant.email} in team ${grant.teamId}`);
    return this.mint(user.id, grant.teamId, name, abilities, daysAfter(new Date(), grant.expiresInDays));
  }

  /** The team's live integration tokens, newest first. */
  async list(teamId: number, page = 1): Promise<IntegrationTokenPage> {
    const [items, total] = await this.em.findAndCount(AccessToken, liveIntegrationTokens(teamId, new Date()), {
      populate: ['user'],
      orderBy: { id: 'desc' },
      limit: TOKENS_PER_PAGE,
      offset: (page - 1) * TOKENS_PER_PAGE,
    });
    return { items, total, page, perPage: TOKENS_PER_PAGE };
  }

  /** Revokes one live integration token of the team; another team's, unknown, revoked or expired ones → 404. */
  async revoke(teamId: number, id: string): Promise<void> {
    const revoked = /^\d{1,9}$/.test(id)
      ? await this.em.nativeUpdate(AccessToken, { id: Number(id), ...liveIntegrationTokens(teamId, new Date()) }, { revokedAt: new Date() })
      : 0;
    if (revoked === 0) throw new NotFoundError('Token not found');
  }

  /** The operator's `token revoke ID`: a live integration token of any team. */
  async revokeById(id: string): Promise<AccessToken> {
    const token = /^\d{1,9}$/.test(id) ? await this.em.findOne(AccessToken, { id: Number(id) }, { populate: ['user'] }) : null;
    if (!token || token.kind() !== 'integration') throw new NotFoundError('Token not found');
    await this.revoke(token.team.id, id);
    return token;
  }

  private async mint(userId: number, teamId: number, name: string, abilities: Ability[], expiresAt: Date): Promise<CreatedIntegrationToken> {
    const token = generateAccessToken();
    const record = this.em.create(AccessToken, {
      user: userId, team: teamId, tokenHash: hashAccessToken(token), name, abilities, device: null, expiresAt, revokedAt: null,
    });
    await this.em.flush();
    await this.em.populate(record, ['user']);
    return { token, record };
  }
}

/** expires_at must lie in the future and at most INTEGRATION_TOKEN_MAX_DAYS ahead. */
function chosenExpiry(text: string, now: Date): Date {
  const expiresAt = new Date(text);
  if (expiresAt <= now || expiresAt > daysAfter(now, INTEGRATION_TOKEN_MAX_DAYS)) {
    throw new ValidationError({ expires_at: [`Must be in the future and at most ${INTEGRATION_TOKEN_MAX_DAYS} days ahead.`] });
  }
  return expiresAt;
}
