import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError, bearerCredential, hexDigestsEqual } from '@tributary/kit';
import { Team, type TeamMembership, type TeamRole } from '../teams/index.js';
import { AccessToken, type AccessTokenKind } from './access-token.entity.js';
import { ACCESS_TOKEN_PATTERN, hashAccessToken } from './access-token-credentials.js';

/** The caller: a user acting in the one team the token is scoped to. */
export interface PhotosPrincipal {
  userId: number;
  teamId: number;
  tokenId: number;
  role: TeamRole;
  /** null = an office session whose permissions come from the role; otherwise the token's explicit abilities. */
  abilities: readonly string[] | null;
  kind: AccessTokenKind;
  /** The Device row of a device token; null for office sessions and integration tokens. */
  deviceId: number | null;
}

export interface SignedInUser {
  membership: TeamMembership;
  principal: PhotosPrincipal;
}

export class AuthService {
  constructor(private readonly em: EntityManager) {}

  /** `Authorization: Bearer <token>`; every failure is the same AuthenticationError (the reason is logged only). */
  async authenticate(authorization: string | undefined): Promise<PhotosPrincipal> {
    return (await this.signedIn(authorization)).principal;
  }

  async signedIn(authorization: string | undefined): Promise<SignedInUser> {
    const credential = bearerCredential(authorization) ?? '';
    // Hash first, whatever arrived, so malformed and unknown tokens cost the same as known ones.
    const hash = hashAccessToken(credential);
    const token = ACCESS_TOKEN_PATTERN.test(credential) ? await this.em.getRepository(AccessToken).findByHash(hash) : null;
    if (!token || !hexDigestsEqual(hash, token.tokenHash)) throw new AuthenticationError('unknown or malformed token');
    if (!token.isUsable(new Date())) throw new AuthenticationError('revoked or expired token');
    // A user removed from the team loses the team's data at once, even with an unrevoked token.
    const membership = await this.em.getRepository(Team).membership(token.team.id, token.user.id);
    if (!membership) throw new AuthenticationError('token user is no longer a member of its team');
    return {
      membership,
      principal: {
        userId: token.user.id,
        teamId: token.team.id,
        tokenId: token.id,
        role: membership.role,
        abilities: token.abilities ?? null,
        kind: token.kind(),
        deviceId: token.device?.id ?? null,
      },
    };
  }
}
