// Sign-in (spec "Authentication"): login with e-mail and password → an office session, or with a device_id → a device
// token (ability `capture`) tied to the Device row; logout; switch-team (moves the token to another team). Every login
// refusal is the same AuthenticationError (401) after the same bcrypt work, whatever the reason (unknown e-mail, no
// password, wrong password, no team). Tokens are shown once: only their SHA-256 is stored.
import { LockMode } from '@mikro-orm/core';
import { SERVICE_NAME } from '../../service-name.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError, ForbiddenError, parseInput, passwordMatches } from '@tributary/kit';
import { Device, type DeviceRegistration } from '../devices/index.js';
import { TeamMembership, User } from '../teams/index.js';
import { CAPTURE_ABILITY } from './abilities.js';
import { AccessToken } from './access-token.entity.js';
import { DEVICE_TOKEN_TTL_DAYS, SESSION_TOKEN_TTL_DAYS, daysAfter, generateAccessToken, hashAccessToken } from './access-token-credentials.js';
import type { PhotosPrincipal } from './auth.service.js';
import { loginInput, switchTeamInput, type LoginInput } from './auth.validation.js';
import { normalizeEmail } from './email-address.js';

/** A new bearer token with what it acts as: the only moment the token is readable. */
export interface IssuedToken {
  token: string;
  record: AccessToken;
  membership: TeamMembership;
}

/** A token switch-team moved: the same record, now scoped to the membership's team. */
export interface MovedSession {
  record: AccessToken;
  membership: TeamMembership;
}

type DeviceFields = Omit<DeviceRegistration, 'teamId' | 'userId'>;

export const NOT_A_MEMBER_MESSAGE = 'You are not a member of that team.';

/** The stored name of an office session (a device token is named by its device_id, an integration token by its creator). */
const OFFICE_SESSION_NAME = 'office session';

export class SignInService {
  constructor(private readonly em: EntityManager) {}

  async login(body: unknown): Promise<IssuedToken> {
    const input = parseInput(loginInput, body);
    const user = await this.em.findOne(User, { email: normalizeEmail(input.email) });
    // One bcrypt comparison on every path (a dummy hash when there is no user or password), so timing tells nothing.
    const matches = await passwordMatches(input.password, user?.passwordHash, SERVICE_NAME);
    if (!user || !matches) throw new AuthenticationError(user ? 'wrong password' : 'unknown e-mail');
    const membership = await this.loginMembership(user, input.team_id);
    return this.em.transactional((tx) => issueToken(tx, membership, deviceFields(input)));
  }

  /** Revokes the token the request was made with (effective from the next request). */
  async logout(principal: PhotosPrincipal): Promise<void> {
    await this.em.nativeUpdate(AccessToken, { id: principal.tokenId, revokedAt: null }, { revokedAt: new Date() });
  }

  /**
   * Moves the calling token to another team of the user (spec: "switch-team moves the session"): the token the client
   * holds keeps working, scoped to the new team. Every request reads the token's team afresh, so the old team's data is
   * out of its reach as soon as this commits. The expiry stays (moving is not signing in again). Integration tokens are
   * bound to their team (403).
   */
  async switchTeam(principal: PhotosPrincipal, body: unknown): Promise<MovedSession> {
    const { team_id: teamId } = parseInput(switchTeamInput, body);
    if (principal.kind === 'integration') throw new ForbiddenError('Integration tokens are bound to the team they were created for; create one in the other team.');
    return this.em.transactional(async (tx) => {
      const membership = await tx.findOne(TeamMembership, { team: teamId, user: principal.userId }, { populate: ['team', 'user'] });
      if (!membership) throw new ForbiddenError(NOT_A_MEMBER_MESSAGE, { team_id: teamId });
      // Locked, so a logout or another switch of the same token waits for this one (and is then seen).
      const token = await tx.findOne(AccessToken, { id: principal.tokenId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!token?.isUsable(new Date())) throw new AuthenticationError('token revoked or expired during switch-team');
      await tx.populate(token, ['device']);
      if (token.team.id !== teamId) await moveToken(tx, token, membership);
      return { record: token, membership };
    });
  }

  /** The membership a login acts in: the one named, or the user's first (oldest membership). No team → 401. */
  private async loginMembership(user: User, teamId: number | undefined): Promise<TeamMembership> {
    if (teamId !== undefined) {
      const named = await this.em.findOne(TeamMembership, { user, team: teamId }, { populate: ['team', 'user'] });
      if (!named) throw new ForbiddenError(NOT_A_MEMBER_MESSAGE, { team_id: teamId });
      return named;
    }
    const first = await this.em.findOne(TeamMembership, { user }, { populate: ['team', 'user'], orderBy: { id: 'asc' } });
    if (!first) throw new AuthenticationError('user belongs to no team');
    return first;
  }
}

/**
 * The token now acts in the membership's team. A device token becomes the token of its device_id's Device row in that
 * team (registered on first use), whose other tokens are revoked: one live token per device row, as a login leaves it.
 */
async function moveToken(tx: EntityManager, token: AccessToken, membership: TeamMembership): Promise<void> {
  if (token.device) {
    const { deviceId, name, platform } = token.device;
    const row = await tx.getRepository(Device).registerLocked({ teamId: membership.team.id, userId: membership.user.id, deviceId, name: name ?? undefined, platform: platform ?? undefined });
    await tx.nativeUpdate(AccessToken, { device: row, revokedAt: null, id: { $ne: token.id } }, { revokedAt: new Date() });
    token.device = row;
  }
  token.team = membership.team;
  await tx.flush();
}

/** An office session, or with a device a device token (the device's earlier tokens are revoked in the same commit). */
async function issueToken(tx: EntityManager, membership: TeamMembership, device: DeviceFields | undefined): Promise<IssuedToken> {
  const token = generateAccessToken();
  const now = new Date();
  const base = { user: membership.user, team: membership.team, tokenHash: hashAccessToken(token), createdAt: now, revokedAt: null };
  let record: AccessToken;
  if (device) {
    const row = await tx.getRepository(Device).registerLocked({ teamId: membership.team.id, userId: membership.user.id, ...device });
    await tx.nativeUpdate(AccessToken, { device: row, revokedAt: null }, { revokedAt: now });
    record = tx.create(AccessToken, { ...base, name: device.deviceId, abilities: [CAPTURE_ABILITY], device: row, expiresAt: daysAfter(now, DEVICE_TOKEN_TTL_DAYS) });
  } else {
    record = tx.create(AccessToken, { ...base, name: OFFICE_SESSION_NAME, abilities: null, device: null, expiresAt: daysAfter(now, SESSION_TOKEN_TTL_DAYS) });
  }
  await tx.flush();
  return { token, record, membership };
}

function deviceFields(input: LoginInput): DeviceFields | undefined {
  if (input.device_id === undefined) return undefined;
  return { deviceId: input.device_id, name: input.device_name, platform: input.platform };
}
