// Idempotent demo data for local development (`cli seed`). The demo token is a fixed, documented dev-only value,
// so `npm start` can print it on every start; it exists only in databases that were seeded.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_PREFIX, AccessToken, hashAccessToken } from './modules/auth/index.js';
import { Project } from './modules/projects/index.js';
import { Team, TeamMembership, User } from './modules/teams/index.js';

export const DEMO_TEAM_NAME = 'Demo Builders';
export const DEMO_USER_EMAIL = 'demo@photos.tributary.test';
export const DEMO_ACCESS_TOKEN = `${ACCESS_TOKEN_PREFIX}${'DemoPhotosTokenLocalDevOnly'.padEnd(48, '0')}`;

const DEMO_PROJECTS = [
  { name: 'Harbour View Apartments', address: '1 Quay Street, Auckland', latitude: -36.8433, longitude: 174.7676, radiusM: 150 },
  { name: 'Riverside School Extension', address: '20 River Road, Hamilton', latitude: -37.7826, longitude: 175.2828, radiusM: 200 },
  { name: 'Office Fit-out (no site coordinates)', address: null, latitude: null, longitude: null, radiusM: 150 },
] as const;

export interface PhotosDemoCredentials {
  team_id: number;
  email: string;
  /** `Authorization: Bearer <token>`; `X-Photos-Authorization: Bearer <token>` at the gateway. */
  token: string;
}

export async function seedDemoData(em: EntityManager): Promise<PhotosDemoCredentials> {
  return em.transactional(async (tx) => {
    let user = await tx.findOne(User, { email: DEMO_USER_EMAIL });
    user ??= tx.create(User, { email: DEMO_USER_EMAIL, name: 'Demo Site Lead' });
    let membership = await tx.findOne(TeamMembership, { user, team: { name: DEMO_TEAM_NAME } }, { populate: ['team'] });
    if (!membership) {
      const team = tx.create(Team, { name: DEMO_TEAM_NAME });
      membership = tx.create(TeamMembership, { team, user, role: 'owner' });
    }
    const team = membership.team;

    const tokenHash = hashAccessToken(DEMO_ACCESS_TOKEN);
    const token = await tx.findOne(AccessToken, { tokenHash });
    if (token) {
      Object.assign(token, { revokedAt: null, expiresAt: null, abilities: null, team });
    } else {
      tx.create(AccessToken, { user, team, tokenHash, name: 'demo-device', abilities: null, expiresAt: null, revokedAt: null });
    }

    for (const demo of DEMO_PROJECTS) {
      const existing = await tx.findOne(Project, { team, name: demo.name });
      if (!existing) tx.create(Project, { team, status: 'active', ...demo });
    }
    await tx.flush();
    return { team_id: team.id, email: DEMO_USER_EMAIL, token: DEMO_ACCESS_TOKEN };
  });
}
