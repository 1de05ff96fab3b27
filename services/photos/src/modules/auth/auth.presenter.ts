// The auth routes' bodies as the Decisions table fixes them: GET /auth/me, the token a login or switch-team issues, and
// integration tokens (secret only in the creation response).
import type { z } from 'zod';
import type { TeamMembership, User } from '../teams/index.js';
import { CAPTURE_ABILITY, type Ability } from './abilities.js';
import type { AccessToken } from './access-token.entity.js';
import type { createdIntegrationTokenResponse, integrationTokenListResponse, integrationTokenResource, issuedTokenResponse, meResponse } from './auth.openapi.js';
import type { CreatedIntegrationToken, IntegrationTokenPage } from './integration-token.service.js';
import type { IssuedToken } from './sign-in.service.js';

const presentUser = (user: User) => ({ id: user.id, name: user.name, email: user.email });

export function presentSignedInUser(membership: TeamMembership): z.input<typeof meResponse> {
  return {
    data: {
      user: presentUser(membership.user),
      role: membership.role,
      team: { id: membership.team.id, name: membership.team.name },
    },
  };
}

export function presentIssuedToken({ token, record, membership }: IssuedToken): z.input<typeof issuedTokenResponse> {
  const device = record.device;
  return {
    data: {
      token,
      token_type: 'Bearer',
      kind: device ? 'device' : 'session',
      abilities: device ? [CAPTURE_ABILITY] : null,
      expires_at: record.expiresAt!.toISOString(),
      user: presentUser(membership.user),
      role: membership.role,
      team: { id: membership.team.id, name: membership.team.name },
      device: device ? { id: device.id, device_id: device.deviceId, name: device.name ?? null, platform: device.platform ?? null } : null,
    },
  };
}

export function presentIntegrationToken(record: AccessToken): z.input<typeof integrationTokenResource> {
  return {
    id: record.id,
    name: record.name,
    abilities: (record.abilities ?? []) as Ability[],
    user: presentUser(record.user),
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt!.toISOString(),
  };
}

export function presentCreatedIntegrationToken({ token, record }: CreatedIntegrationToken): z.input<typeof createdIntegrationTokenResponse> {
  return { data: { ...presentIntegrationToken(record), token } };
}

export function presentIntegrationTokenPage(page: IntegrationTokenPage): z.input<typeof integrationTokenListResponse> {
  return {
    data: page.items.map(presentIntegrationToken),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
